import { useStore } from '@nanostores/react';
import { useEffect, type FormEvent } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import { $audit, loadAudit, setFilter } from '../../../stores/ops-audit';
import { DateField } from '../../../ui/DateField';
import { FieldFrame } from '../../../ui/FieldFrame';
import { ScrollTable } from '../../../ui/ScrollTable';
import { TextField } from '../../../ui/TextField';
import { timeLabel } from '../../user-center/security-labels';
import { actionLabel, actionNames } from './action-label';
import type { AuditParty } from '../../../schemas/ops-people';
import { auditReasonText } from '../../../schemas/review-outcome';

interface AuditTrailProps {
  lang: Lang;
  messages: Pick<Messages, 'opsPeople' | 'actionNames' | 'errors'>;
}

/**
 * The audit trail for every operator role: filter by actor, target, action and time; newest first, older pages
 * on demand. `?target=` and `?actor=` in the address preset the filter (a person's page links here).
 */
export default function AuditTrail({ lang, messages }: AuditTrailProps) {
  const m = messages.opsPeople;
  const a = m.audit;
  const s = useStore($audit);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    for (const field of ['actor', 'target'] as const) {
      const value = params.get(field);
      if (value) setFilter(field, value);
    }
    void loadAudit();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadAudit();
  };

  return (
    <div className="ops-audit">
      <form className="ops-filters" aria-label={a.filtersTitle} onSubmit={submit}>
        <TextField id="audit-actor" label={a.actor} value={s.actor} onChange={(v) => setFilter('actor', v)} autoComplete="off" maxLength={64} />
        <TextField id="audit-target" label={a.target} value={s.target} onChange={(v) => setFilter('target', v)} autoComplete="off" maxLength={64} />
        <FieldFrame id="audit-action" label={a.action}>
          {(aria) => (
            <select {...aria} id="audit-action" className="input" value={s.action} onChange={(e) => setFilter('action', e.target.value)}>
              <option value="">{a.anyAction}</option>
              {actionNames(messages).map(([action, label]) => (
                <option key={action} value={action}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        {/* The portal's own date field: a native one writes the browser's format (mm/dd/yyyy on a Chinese page). */}
        <DateField id="audit-from" lang={lang} label={a.from} labels={a.dateParts} value={s.from} onChange={(v) => setFilter('from', v)} />
        <DateField id="audit-to" lang={lang} label={a.to} labels={a.dateParts} value={s.to} onChange={(v) => setFilter('to', v)} />
        <button type="submit" className="button primary" disabled={s.loading}>
          {a.apply}
        </button>
      </form>
      {s.error && (
        <p className="error" role="alert">
          {problemText(messages, s.error)}
        </p>
      )}
      {s.loaded && s.entries.length === 0 && !s.error && <p className="hint">{a.none}</p>}
      {s.entries.length > 0 && (
        <ScrollTable label={a.entries} className="members audit-table" columns={[a.timeColumn, a.actorColumn, a.actionColumn, a.targetColumn, a.reasonColumn]}>
          {s.entries.map((entry) => (
            <tr key={entry.id}>
              <td>{timeLabel(entry.at, lang)}</td>
              <td>
                {a.actorKinds[entry.actorKind]}
                {entry.actorName ? ` · ${entry.actorName}` : ''}
                {entry.actorParty && entry.actorId && <Party party={entry.actorParty} href={pageOf('user', entry.actorId)} unnamed={a.unnamed} />}
                {entry.actorKind === 'system' && entry.actorId === 'cli' ? ` · ${a.commandLine}` : entry.actorId && <span className="history-detail">{entry.actorId}</span>}
              </td>
              <td>{actionLabel(messages, entry.action)}</td>
              <td>
                {entry.targetKind ? (a.targetKinds[entry.targetKind as keyof typeof a.targetKinds] ?? entry.targetKind) : '—'}
                {entry.targetParty && entry.targetId && entry.targetKind && <Party party={entry.targetParty} href={pageOf(entry.targetKind, entry.targetId)} unnamed={a.unnamed} />}
                {entry.targetId && <span className="history-detail">{entry.targetId}</span>}
              </td>
              <td>
                {entry.reason ? auditReasonText(lang, entry.reason) : entry.network ? '' : '—'}
                {entry.network && <span className="history-detail">{entry.network}</span>}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      {s.next !== null && (
        <button type="button" className="button secondary" disabled={s.loading} onClick={() => void loadAudit(true)}>
          {a.older}
        </button>
      )}
    </div>
  );
}

/** The operator page of a person or company the trail names; none for other kinds. */
function pageOf(kind: string, id: string): string | undefined {
  if (kind === 'user') return `/ops/people?${new URLSearchParams({ person: id })}`;
  if (kind === 'company') return `/ops/company?${new URLSearchParams({ companyId: id })}`;
  return undefined;
}

/** A person or company by name (a link to their page), then phone and e-mail: operators read names, not ids (issue 33). */
function Party({ party, href, unnamed }: { party: AuditParty; href: string | undefined; unnamed: string }) {
  const name = party.name ?? unnamed;
  return (
    <span className="audit-party">
      {href ? (
        <a className="text-link" href={href}>
          {name}
        </a>
      ) : (
        name
      )}
      {party.phone && <span className="history-detail">{party.phone}</span>}
      {party.email && <span className="history-detail">{party.email}</span>}
    </span>
  );
}
