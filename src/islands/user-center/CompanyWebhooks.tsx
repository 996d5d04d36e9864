import { useEffect, useMemo, useState } from 'react';
import { companyWebhooksApi } from '../../api/webhooks';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { CompanyAuditPage, PersonalFields } from '../../schemas/webhooks';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import { TextField } from '../../ui/TextField';
import { actionLabel } from '../ops/audit/action-label';
import { timeLabel } from './security-labels';
import './company-webhooks.css';
import { WebhookEndpoints, type EndpointsApi } from '../shared/WebhookEndpoints';

type Words = Pick<Messages, 'webhooks' | 'errors' | 'actionNames'>;

interface Props {
  lang: Lang;
  companyId: string;
  companyName: string;
  messages: Words;
}

const PERSONAL: PersonalFields[] = ['masked', 'hashed', 'clear'];

/**
 * A company's event webhooks (issue 45, its administrators): the endpoints (shared/WebhookEndpoints.tsx) with "Confirm
 * it's you" first when the session's proof is stale to add one or replace its secret, and the company's own trail.
 */
export function CompanyWebhooks({ lang, companyId, companyName, messages }: Props) {
  const t = messages.webhooks;
  // Each change here is a row of the company's activity too: the trail reads again after it.
  const [changes, setChanges] = useState(0);
  const api: EndpointsApi = useMemo(
    () => ({
      list: () => companyWebhooksApi.list(companyId),
      add: (request) => withFreshProof(() => companyWebhooksApi.add(companyId, request)),
      rotate: (endpointId) => withFreshProof(() => companyWebhooksApi.rotate(companyId, endpointId)),
      remove: (endpointId) => companyWebhooksApi.remove(companyId, endpointId),
      enable: (endpointId) => companyWebhooksApi.enable(companyId, endpointId),
      ping: (endpointId) => companyWebhooksApi.ping(companyId, endpointId),
      resend: (deliveryId) => companyWebhooksApi.resend(companyId, deliveryId),
    }),
    [companyId],
  );
  return (
    <WebhookEndpoints
      lang={lang}
      idPrefix={`webhooks-${companyId}`}
      title={format(t.title, { company: companyName })}
      level={3}
      listLabel={format(t.listLabel, { company: companyName })}
      deliveriesLabel={format(t.deliveriesLabel, { company: companyName })}
      messages={messages}
      api={api}
      onChange={() => setChanges((n) => n + 1)}
    >
      <CompanyTrail lang={lang} companyId={companyId} companyName={companyName} messages={messages} changes={changes} />
    </WebhookEndpoints>
  );
}

const dayOf = (at: number) => {
  const date = new Date(at);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

/** The company's own activity: the newest rows (personal fields masked), older on asking, and an export of a period. */
function CompanyTrail({ lang, companyId, companyName, messages, changes }: Props & { changes: number }) {
  const t = messages.webhooks;
  const [page, setPage] = useState<CompanyAuditPage | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [range, setRange] = useState({ from: dayOf(Date.now() - 30 * 86_400_000), to: dayOf(Date.now()), format: 'csv' as 'csv' | 'jsonl', personal: 'masked' as PersonalFields });
  const [busy, setBusy] = useState(false);
  const [exported, setExported] = useState<{ url: string; rows: number; expiresAt: number } | null>(null);
  const titleId = `trail-${companyId}`;

  async function more(before?: number) {
    const read = await companyWebhooksApi.trail(companyId, before);
    if (!read.ok) return setProblem(problemOf(read));
    setPage((old) => (before && old ? { rows: [...old.rows, ...read.data.rows], next: read.data.next } : read.data));
  }
  useEffect(() => void more(), [companyId, changes]);

  async function exportRange() {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setExported(null);
    const from = new Date(`${range.from}T00:00:00`).getTime();
    const to = new Date(`${range.to}T00:00:00`).getTime() + 86_400_000;
    const result = await withFreshProof(() => companyWebhooksApi.exportTrail({ companyId, from: Number.isNaN(from) ? 0 : from, to: Number.isNaN(to) ? 0 : to, format: range.format, personalFields: range.personal }));
    setBusy(false);
    if (result.ok) setExported(result.data);
    else if (result.code !== STEP_UP_CANCELLED) setProblem(problemOf(result));
  }

  const who = (row: CompanyAuditPage['rows'][number]) => (row.actor.kind === 'system' ? t.system : row.actor.kind === 'operator' ? t.operator : (row.actor.name ?? row.actor.email ?? row.actor.phone ?? '—'));

  return (
    <section className="trail" aria-labelledby={titleId} aria-busy={page === null || undefined}>
      <h4 id={titleId} className="webhooks-subtitle">{format(t.trailTitle, { company: companyName })}</h4>
      <p className="hint">{t.trailLead}</p>
      {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
      <form
        className="trail-export"
        noValidate
        aria-label={t.exportTitle}
        onSubmit={(event) => {
          event.preventDefault();
          void exportRange();
        }}
      >
        <TextField id={`${titleId}-from`} label={t.fromLabel} type="date" value={range.from} onChange={(from) => setRange({ ...range, from })} />
        <TextField id={`${titleId}-to`} label={t.toLabel} type="date" value={range.to} onChange={(to) => setRange({ ...range, to })} />
        <div className="field">
          <label htmlFor={`${titleId}-format`}>{t.formatLabel}</label>
          <select className="select" id={`${titleId}-format`} value={range.format} onChange={(event) => setRange({ ...range, format: event.target.value as 'csv' | 'jsonl' })}>
            <option value="csv">{t.formats.csv}</option>
            <option value="jsonl">{t.formats.jsonl}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${titleId}-personal`}>{t.personalLabel}</label>
          <select className="select" id={`${titleId}-personal`} value={range.personal} onChange={(event) => setRange({ ...range, personal: event.target.value as PersonalFields })}>
            {PERSONAL.map((choice) => (
              <option key={choice} value={choice}>
                {t.personal[choice]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button secondary" disabled={busy}>
          {t.export}
        </button>
      </form>
      <div className="live-region" role="status" aria-live="polite">
        {exported && (
          <p className="notice">
            {format(t.exported, { rows: exported.rows })}{' '}
            <a href={exported.url} download>
              {format(t.download, { date: timeLabel(exported.expiresAt, lang) })}
            </a>
          </p>
        )}
      </div>
      {page?.rows.length === 0 && <p className="hint">{t.trailNone}</p>}
      {page && page.rows.length > 0 && (
        <ul className="delivery-list" aria-label={format(t.trailLabel, { company: companyName })}>
          {page.rows.map((row) => (
            <li key={row.id} className="delivery" data-audit={row.id}>
              <div className="delivery-head">
                <span className="delivery-type">{actionLabel(messages, row.action)}</span>
                <span className="hint">{timeLabel(Date.parse(row.at), lang)}</span>
              </div>
              <p className="hint">{who(row)}</p>
            </li>
          ))}
        </ul>
      )}
      {page?.next && (
        <button type="button" className="button secondary small" onClick={() => void more(page.next ?? undefined)}>
          {t.more}
        </button>
      )}
    </section>
  );
}
