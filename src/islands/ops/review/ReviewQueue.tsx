import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import { COMPANY_TYPES } from '../../../schemas/onboarding';
import { QUEUE_STATUSES } from '../../../schemas/ops-review';
import { $queue, filterFromSearch, loadQueue, searchQueue, type QueueFilter } from '../../../stores/ops-review';
import { FieldFrame } from '../../../ui/FieldFrame';
import { ScrollTable } from '../../../ui/ScrollTable';
import { TextField } from '../../../ui/TextField';
import { companyTypeLabel, statusLabel, statusTone } from '../../account-choice/labels';
import { formatTime } from './format';
import { format } from '../../../i18n/format';

interface ReviewQueueProps {
  lang: Lang;
  messages: Pick<Messages, 'opsReview' | 'errors' | 'companyTypes' | 'statuses' | 'common'>;
}

/** /ops/companies: companies by status, newest first, searchable; each opens its review page. */
export default function ReviewQueue({ lang, messages }: ReviewQueueProps) {
  const m = messages.opsReview;
  const s = useStore($queue);
  const [draft, setDraft] = useState<QueueFilter>(() => filterFromSearch(location.search));

  useEffect(() => {
    void loadQueue(filterFromSearch(location.search));
  }, []);

  const set = (change: Partial<QueueFilter>) => setDraft({ ...draft, ...change });
  const pages = Math.max(1, Math.ceil(s.total / s.pageSize));
  const go = (page: number) => {
    const next = { ...s.filter, page };
    setDraft(next);
    void searchQueue(next);
  };

  return (
    <div className="ops-review">
      <form
        className="ops-filters"
        aria-label={m.filters}
        onSubmit={(event) => {
          event.preventDefault();
          void searchQueue({ ...draft, page: 1 });
        }}
      >
        <FieldFrame id="queue-status" label={m.status}>
          {(aria) => (
            <select {...aria} id="queue-status" className="select" value={draft.status} onChange={(event) => set({ status: event.target.value })}>
              {QUEUE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {messages.statuses[status]}
                </option>
              ))}
              <option value="all">{m.allStatuses}</option>
            </select>
          )}
        </FieldFrame>
        <TextField id="queue-search" label={m.search} value={draft.q} onChange={(q) => set({ q })} maxLength={100} type="search" />
        <TextField id="queue-country" label={m.country} hint={m.countryHint} value={draft.country} onChange={(country) => set({ country })} maxLength={2} autoComplete="off" />
        <FieldFrame id="queue-type" label={m.type}>
          {(aria) => (
            <select {...aria} id="queue-type" className="select" value={draft.type} onChange={(event) => set({ type: event.target.value })}>
              <option value="">{m.allTypes}</option>
              {COMPANY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {messages.companyTypes[type]}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        <div className="form-actions">
          <button type="submit" className="button primary">
            {m.apply}
          </button>
        </div>
      </form>

      {s.error && <p className="error form-error" role="alert">{problemText(messages, s.error)}</p>}
      {s.phase === 'loading' ? (
        <div className="spinner" role="status">{messages.common.loading}</div>
      ) : (
        <section aria-labelledby="queue-results">
          <h2 id="queue-results">{m.results}</h2>
          <p role="status">{s.total ? format(m.found, { n: s.total }) : m.empty}</p>
          {s.items.length > 0 && (
            <ScrollTable
              label={m.resultsTable}
              className="ops-table"
              columns={[m.columns.name, m.columns.type, m.columns.country, m.columns.creditCode, m.columns.status, m.columns.submitted]}
            >
              {s.items.map((item) => {
                const name = lang === 'zh' && item.companyNameCn ? item.companyNameCn : item.companyNameEn;
                return (
                  <tr key={item.companyId}>
                    <td>
                      <a className="text-link" href={`/ops/company?companyId=${encodeURIComponent(item.companyId)}`}>
                        {name}
                      </a>
                    </td>
                    <td>{companyTypeLabel(item.companyType, messages.companyTypes)}</td>
                    <td>{item.countryId ?? '—'}</td>
                    <td>{item.socialCredit ?? '—'}</td>
                    <td>
                      <span className="badge" data-tone={statusTone(item.status)}>
                        {statusLabel(item.status, messages.statuses)}
                      </span>
                    </td>
                    <td>{formatTime(lang, item.createdAt)}</td>
                  </tr>
                );
              })}
            </ScrollTable>
          )}
          {pages > 1 && (
            <nav className="pager" aria-label={format(m.pageOf, { page: s.filter.page, pages })}>
              <button type="button" className="button secondary" disabled={s.filter.page <= 1} onClick={() => go(s.filter.page - 1)}>
                {m.previous}
              </button>
              <span>{format(m.pageOf, { page: s.filter.page, pages })}</span>
              <button type="button" className="button secondary" disabled={s.filter.page >= pages} onClick={() => go(s.filter.page + 1)}>
                {m.next}
              </button>
            </nav>
          )}
        </section>
      )}
    </div>
  );
}
