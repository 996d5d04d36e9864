import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApiResult } from '../../api/client';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { EndpointRequest, EndpointWithSecret, PersonalFields, WebhookDelivery, WebhookEndpoint, WebhooksAnswer } from '../../schemas/webhooks';
import { STEP_UP_CANCELLED } from '../../stores/step-up-state';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ModalForm } from '../../ui/ModalForm';
import { SecretOnce } from '../../ui/SecretOnce';
import { TextField } from '../../ui/TextField';
import { timeLabel } from '../user-center/security-labels';
import '../user-center/company-webhooks.css';

const PERSONAL: PersonalFields[] = ['masked', 'hashed', 'clear'];

interface Draft {
  url: string;
  description: string;
  eventTypes: string[];
  personalFields: PersonalFields;
  clientId: string;
  busy: boolean;
  error: Problem | null;
}

/** The calls of one owner's endpoints: a company's (user center) or the platform's (operators' console). */
export interface EndpointsApi {
  list: () => Promise<ApiResult<WebhooksAnswer>>;
  add: (request: EndpointRequest & { clientId?: string | null }) => Promise<ApiResult<EndpointWithSecret>>;
  rotate: (endpointId: string) => Promise<ApiResult<EndpointWithSecret>>;
  remove: (endpointId: string) => Promise<ApiResult<boolean>>;
  enable: (endpointId: string) => Promise<ApiResult<WebhookEndpoint>>;
  ping: (endpointId: string) => Promise<ApiResult<WebhookDelivery | null>>;
  resend: (deliveryId: string) => Promise<ApiResult<WebhookDelivery | null>>;
}

export interface EndpointsProps {
  lang: Lang;
  /** Unique on the page: the ids of the section's heading and fields. */
  idPrefix: string;
  /** The section's heading, its level, and the accessible names of the two lists. */
  title: string;
  /** The words under the heading (the company's, by default). */
  lead?: string;
  level: 2 | 3;
  listLabel: string;
  deliveriesLabel: string;
  messages: Pick<Messages, 'webhooks' | 'errors'>;
  api: EndpointsApi;
  /** The platform's endpoints name the app they serve (an OpenID client id, optional). */
  withClientId?: boolean;
  /** After every change (the company's trail reads again). */
  onChange?: () => void;
  /** Shown at the end of the section (the company's own trail). */
  children?: ReactNode;
}

/**
 * Event webhook endpoints of one owner (issue 45): add one and see its signing secret once, send a test, replace
 * the secret, turn a stopped one on, remove it; the recent deliveries with their attempts, and "Send again" for a
 * failed one. The user center's company part (CompanyWebhooks, with a fresh proof) and the operators' console
 * (/ops/webhooks, platform endpoints) show the same.
 */
export function WebhookEndpoints({ lang, idPrefix, title, lead, level, listLabel, deliveriesLabel, messages, api, withClientId = false, onChange, children }: EndpointsProps) {
  const t = messages.webhooks;
  const Heading = level === 2 ? 'h2' : 'h3';
  const Sub = level === 2 ? 'h3' : 'h4';
  const [answer, setAnswer] = useState<WebhooksAnswer | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A test or a resend that did not get through is said as a problem, not as good news.
  const [failedNotice, setFailedNotice] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [secret, setSecret] = useState<{ endpoint: WebhookEndpoint; secret: string } | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const titleId = idPrefix;
  const addButton = useRef<HTMLButtonElement>(null);

  async function load() {
    const listed = await api.list();
    onChange?.();
    if (listed.ok) setAnswer(listed.data);
    else setProblem(problemOf(listed));
  }
  useEffect(() => void load(), [idPrefix]);

  async function add(current: Draft) {
    if (current.busy) return;
    setDraft({ ...current, busy: true, error: null });
    const { url, description, eventTypes, personalFields, clientId } = current;
    const added = await api.add({ url: url.trim(), description: description.trim(), eventTypes, personalFields, ...(withClientId ? { clientId: clientId.trim() || null } : {}) });
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
      <Heading id={titleId} className="subsection-title">{title}</Heading>
      <p className="hint">{lead ?? t.lead}</p>
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className={failedNotice ? 'error' : 'notice'}>{notice}</p>}
      </div>
      {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
      <p>
        <button
          ref={addButton}
          type="button"
          className="button secondary"
          disabled={!answer}
          onClick={() => {
            setNotice(null);
            setDraft({ url: 'https://', description: '', eventTypes: ['member.approved', 'member.removed'], personalFields: 'masked', clientId: '', busy: false, error: null });
          }}
        >
          {t.add}
        </button>
      </p>
      {answer?.endpoints.length === 0 && <p className="hint">{t.none}</p>}
      {answer && answer.endpoints.length > 0 && (
        <ul className="session-list" aria-label={listLabel}>
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
                {[ep.clientId ? format(t.clientIdShown, { clientId: ep.clientId }) : null, t.personal[ep.personalFields], ep.failingSince !== null ? format(t.failingSince, { date: timeLabel(ep.failingSince, lang) }) : null, ep.previousSecretUntil && ep.previousSecretUntil > Date.now() ? format(t.rotating, { date: timeLabel(ep.previousSecretUntil, lang) }) : null]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <div className="endpoint-actions">
                {ep.disabledAt === null ? (
                  <button type="button" className="button secondary small" aria-label={format(t.pingLabel, { url: ep.url })} onClick={() => void act(() => api.ping(ep.id), deliveryNotice)}>
                    {t.ping}
                  </button>
                ) : (
                  <button type="button" className="button secondary small" onClick={() => void act(() => api.enable(ep.id), () => t.enabledNotice)}>
                    {t.enable}
                  </button>
                )}
                <button
                  type="button"
                  className="button secondary small"
                  aria-label={format(t.rotateLabel, { url: ep.url })}
                  onClick={() =>
                    void act(
                      () => api.rotate(ep.id),
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
          <Sub className="webhooks-subtitle">{t.deliveriesTitle}</Sub>
          {answer.deliveries.length === 0 ? (
            <p className="hint">{t.deliveriesNone}</p>
          ) : (
            <ul className="delivery-list" aria-label={deliveriesLabel}>
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
                      onClick={() => void act(() => api.resend(d.id), (sent) => ({ text: format(t.resentNotice, { status: t[sent?.status ?? 'pending'] }), failed: sent?.status !== 'delivered' }))}
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
        <ModalForm
          title={t.formTitle}
          onCancel={() => setDraft(null)}
          onSubmit={() => void add(draft)}
          error={draft.error && problemText(messages, draft.error)}
          disabled={draft.busy}
          cancelLabel={t.cancel}
          submitLabel={t.submit}
        >
          <TextField id={`${titleId}-url`} label={t.urlLabel} hint={t.urlHint} type="url" inputMode="url" required maxLength={512} value={draft.url} onChange={(url) => setDraft({ ...draft, url })} />
          {withClientId && (
            <TextField id={`${titleId}-client`} label={t.clientIdLabel} hint={t.clientIdHint} maxLength={64} value={draft.clientId} onChange={(clientId) => setDraft({ ...draft, clientId })} />
          )}
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
        </ModalForm>
      )}

      {secret && (
        <SecretOnce title={t.secretTitle} idLabel={t.endpointLabel} id={secret.endpoint.url} secret={secret.secret} words={t} onDone={() => setSecret(null)} returnFocusTo={() => addButton.current} />
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
            void act(() => api.remove(ep.id), () => t.removedNotice);
          }}
        />
      )}

      {children}
    </section>
  );
}

