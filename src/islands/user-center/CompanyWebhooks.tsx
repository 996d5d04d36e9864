import { useEffect, useState } from 'react';
import type { ApiResult } from '../../api/client';
import { companyWebhooksApi } from '../../api/webhooks';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { CompanyAuditPage, PersonalFields, WebhookDelivery, WebhookEndpoint, WebhooksAnswer } from '../../schemas/webhooks';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { Modal } from '../../ui/Modal';
import { SecretOnce } from '../../ui/SecretOnce';
import { TextField } from '../../ui/TextField';
import { actionLabel } from '../ops/audit/action-label';
import { timeLabel } from './security-labels';
import './company-webhooks.css';

type Words = Pick<Messages, 'webhooks' | 'errors' | 'actionNames'>;

interface Props {
  lang: Lang;
  companyId: string;
  companyName: string;
  messages: Words;
}

interface Draft {
  url: string;
  description: string;
  eventTypes: string[];
  personalFields: PersonalFields;
  busy: boolean;
  error: Problem | null;
}

const PERSONAL: PersonalFields[] = ['masked', 'hashed', 'clear'];

/**
 * A company's event webhooks (issue 45, its administrators): add an endpoint ("Confirm it's you" first when the
 * session's proof is stale) and see its signing secret once, send a test, replace the secret, turn a stopped one on,
 * remove it; the recent deliveries with their attempts, and "Send again" for a failed one.
 */
export function CompanyWebhooks({ lang, companyId, companyName, messages }: Props) {
  const t = messages.webhooks;
  const [answer, setAnswer] = useState<WebhooksAnswer | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A test or a resend that did not get through is said as a problem, not as good news.
  const [failedNotice, setFailedNotice] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [secret, setSecret] = useState<{ endpoint: WebhookEndpoint; secret: string } | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  // Each change here is a row of the company's activity too: the trail reads again after it.
  const [changes, setChanges] = useState(0);
  const titleId = `webhooks-${companyId}`;

  async function load() {
    const listed = await companyWebhooksApi.list(companyId);
    setChanges((n) => n + 1);
    if (listed.ok) setAnswer(listed.data);
    else setProblem(problemOf(listed));
  }
  useEffect(() => void load(), [companyId]);

  async function add(current: Draft) {
    if (current.busy) return;
    setDraft({ ...current, busy: true, error: null });
    const { url, description, eventTypes, personalFields } = current;
    const added = await withFreshProof(() => companyWebhooksApi.add(companyId, { url: url.trim(), description: description.trim(), eventTypes, personalFields }));
    if (!added.ok) return setDraft({ ...current, busy: false, error: added.code === STEP_UP_CANCELLED ? null : problemOf(added) });
    setDraft(null);
    setSecret(added.data);
    setNotice(t.addedNotice);
    await load();
  }

  /** Runs one change; `done` says what to tell (`failed`: a delivery that did not get through). */
  async function act<T>(run: () => Promise<ApiResult<T>>, done: (data: T) => string | null | { text: string; failed: boolean }) {
    setProblem(null);
    const result = await run();
    if (result.ok) {
      const told = done(result.data);
      setNotice(typeof told === 'object' && told !== null ? told.text : told);
      setFailedNotice(typeof told === 'object' && told !== null && told.failed);
    }
    else if (result.code !== STEP_UP_CANCELLED) setProblem(problemOf(result));
    await load();
  }

  const deliveryNotice = (delivery: WebhookDelivery | null) =>
    delivery?.status === 'delivered' ? { text: t.pingDelivered, failed: false } : { text: format(t.pingFailed, { result: delivery?.lastResult ?? '—' }), failed: true };
  const stateOf = (ep: WebhookEndpoint) => (ep.disabledAt === null ? t.receiving : ep.disabledReason === 'gone' ? t.stoppedGone : t.stoppedFailing);
  const urlOf = (id: string) => answer?.endpoints.find((ep) => ep.id === id)?.url ?? '';

  return (
    <section className="webhooks" aria-labelledby={titleId} aria-busy={answer === null || undefined}>
      <h3 id={titleId} className="subsection-title">{format(t.title, { company: companyName })}</h3>
      <p className="hint">{t.lead}</p>
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className={failedNotice ? 'error' : 'notice'}>{notice}</p>}
      </div>
      {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
      <p>
        <button
          type="button"
          className="button secondary"
          disabled={!answer}
          onClick={() => {
            setNotice(null);
            setDraft({ url: 'https://', description: '', eventTypes: ['member.approved', 'member.removed'], personalFields: 'masked', busy: false, error: null });
          }}
        >
          {t.add}
        </button>
      </p>
      {answer?.endpoints.length === 0 && <p className="hint">{t.none}</p>}
      {answer && answer.endpoints.length > 0 && (
        <ul className="session-list" aria-label={format(t.listLabel, { company: companyName })}>
          {answer.endpoints.map((ep) => (
            <li key={ep.id} className="session-card" data-endpoint={ep.id}>
              <div className="session-head">
                <code className="session-device endpoint-url">{ep.url}</code>
                <span className="badge" data-tone={ep.disabledAt === null ? 'good' : 'bad'}>
                  {stateOf(ep)}
                </span>
              </div>
              {ep.description && <p className="hint">{ep.description}</p>}
              <ul className="connect-scopes">
                {ep.eventTypes.map((type) => (
                  <li key={type}>{type}</li>
                ))}
              </ul>
              <p className="hint">
                {[t.personal[ep.personalFields], ep.failingSince !== null ? format(t.failingSince, { date: timeLabel(ep.failingSince, lang) }) : null, ep.previousSecretUntil && ep.previousSecretUntil > Date.now() ? format(t.rotating, { date: timeLabel(ep.previousSecretUntil, lang) }) : null]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <div className="endpoint-actions">
                {ep.disabledAt === null ? (
                  <button type="button" className="button secondary small" aria-label={format(t.pingLabel, { url: ep.url })} onClick={() => void act(() => companyWebhooksApi.ping(companyId, ep.id), deliveryNotice)}>
                    {t.ping}
                  </button>
                ) : (
                  <button type="button" className="button secondary small" onClick={() => void act(() => companyWebhooksApi.enable(companyId, ep.id), () => t.enabledNotice)}>
                    {t.enable}
                  </button>
                )}
                <button
                  type="button"
                  className="button secondary small"
                  aria-label={format(t.rotateLabel, { url: ep.url })}
                  onClick={() =>
                    void act(
                      () => withFreshProof(() => companyWebhooksApi.rotate(companyId, ep.id)),
                      (rotated) => {
                        setSecret(rotated);
                        return null;
                      },
                    )
                  }
                >
                  {t.rotate}
                </button>
                <button type="button" className="button secondary small" aria-label={format(t.removeLabel, { url: ep.url })} onClick={() => setRemoving(ep)}>
                  {t.remove}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {answer && answer.endpoints.length > 0 && (
        <>
          <h4 className="webhooks-subtitle">{t.deliveriesTitle}</h4>
          {answer.deliveries.length === 0 ? (
            <p className="hint">{t.deliveriesNone}</p>
          ) : (
            <ul className="delivery-list" aria-label={format(t.deliveriesLabel, { company: companyName })}>
              {answer.deliveries.map((d) => (
                <li key={d.id} className="delivery" data-delivery={d.id} data-status={d.status}>
                  <div className="delivery-head">
                    <span className="delivery-type">{d.eventType}</span>
                    <span className="badge" data-tone={d.status === 'delivered' ? 'good' : 'bad'}>
                      {t[d.status]}
                    </span>
                  </div>
                  <p className="hint">
                    {[
                      timeLabel(d.createdAt, lang),
                      urlOf(d.endpointId),
                      format(t.attempts, { count: d.attempts }),
                      d.lastResult && d.status !== 'delivered' ? format(t.lastAnswer, { result: d.lastResult }) : null,
                      d.status === 'pending' && d.nextAt ? format(t.nextTry, { date: timeLabel(d.nextAt, lang) }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  {d.status !== 'delivered' && (
                    <button
                      type="button"
                      className="button secondary small"
                      aria-label={format(t.resendLabel, { type: d.eventType })}
                      onClick={() => void act(() => companyWebhooksApi.resend(companyId, d.id), (sent) => ({ text: format(t.resentNotice, { status: t[sent?.status ?? 'pending'] }), failed: sent?.status !== 'delivered' }))}
                    >
                      {t.resend}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      {draft && answer && (
        <Modal title={t.formTitle} onCancel={() => setDraft(null)}>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void add(draft);
            }}
          >
            <TextField id={`${titleId}-url`} label={t.urlLabel} hint={t.urlHint} type="url" inputMode="url" required maxLength={512} value={draft.url} onChange={(url) => setDraft({ ...draft, url })} />
            <TextField id={`${titleId}-description`} label={t.descriptionLabel} hint={t.descriptionHint} maxLength={100} value={draft.description} onChange={(description) => setDraft({ ...draft, description })} />
            <fieldset className="field module-list">
              <legend>{t.typesLabel}</legend>
              {answer.eventTypes.map((type) => (
                <label key={type} className="check">
                  <input
                    type="checkbox"
                    checked={draft.eventTypes.includes(type)}
                    onChange={(event) => setDraft({ ...draft, eventTypes: event.target.checked ? [...draft.eventTypes, type] : draft.eventTypes.filter((one) => one !== type) })}
                  />
                  <span>{type}</span>
                </label>
              ))}
            </fieldset>
            <fieldset className="field module-list">
              <legend>{t.personalLabel}</legend>
              {PERSONAL.map((choice) => (
                <label key={choice} className="check">
                  <input type="radio" name={`${titleId}-personal`} checked={draft.personalFields === choice} onChange={() => setDraft({ ...draft, personalFields: choice })} />
                  <span>{t.personal[choice]}</span>
                </label>
              ))}
            </fieldset>
            {draft.error && (
              <p className="error form-error" role="alert">
                {problemText(messages, draft.error)}
              </p>
            )}
            <div className="modal-actions">
              <button type="button" className="button secondary" onClick={() => setDraft(null)}>
                {t.cancel}
              </button>
              <button type="submit" className="button primary" disabled={draft.busy}>
                {t.submit}
              </button>
            </div>
          </form>
        </Modal>
      )}

      {secret && (
        <SecretOnce
          title={t.secretTitle}
          text={t.secretText}
          idLabel={t.endpointLabel}
          id={secret.endpoint.url}
          secretLabel={t.secretLabel}
          secret={secret.secret}
          words={t}
          onDone={() => setSecret(null)}
        />
      )}

      {removing && (
        <ConfirmModal
          title={t.removeTitle}
          text={t.removeText}
          cancelLabel={t.cancel}
          confirmLabel={t.remove}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const ep = removing;
            setRemoving(null);
            void act(() => companyWebhooksApi.remove(companyId, ep.id), () => t.removedNotice);
          }}
        />
      )}

      <CompanyTrail lang={lang} companyId={companyId} companyName={companyName} messages={messages} changes={changes} />
    </section>
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
