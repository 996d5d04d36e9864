import { useEffect, useRef, useState } from 'react';
import { companyClientsApi } from '../../api/oidc-clients';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { COMPANY_CLIENT_MAX_DAYS, type CompanyClient, type CompanyClientsAnswer } from '../../schemas/oidc-clients';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { ModalForm } from '../../ui/ModalForm';
import { SecretOnce } from '../../ui/SecretOnce';
import { TextField } from '../../ui/TextField';
import { timeLabel } from './security-labels';

interface CompanyApiClientsProps {
  lang: Lang;
  companyId: string;
  companyName: string;
  messages: Pick<Messages, 'apiClients' | 'errors'>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** yyyy-mm-dd of a moment, in the browser's time zone (what <input type="date"> holds). */
const dayOf = (at: number) => {
  const date = new Date(at);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};
/** A fresh key for one opening of the form: a double click sends it twice, the gateway creates one client. */
const creationKey = () => Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, '0')).join('');

interface Draft {
  name: string;
  scopes: string[];
  until: string;
  key: string;
  busy: boolean;
  error: Problem | null;
}

/**
 * A company's API clients (its administrators): create one for the company's own systems (client credentials,
 * permissions among the company's modules, an end date at most a year away; "Confirm it's you" first when the
 * session's proof is stale), see the secret once, list and revoke them.
 */
export function CompanyApiClients({ lang, companyId, companyName, messages }: CompanyApiClientsProps) {
  const t = messages.apiClients;
  const [answer, setAnswer] = useState<CompanyClientsAnswer | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [secret, setSecret] = useState<{ client: CompanyClient; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<CompanyClient | null>(null);
  const titleId = `api-clients-${companyId}`;
  const createButton = useRef<HTMLButtonElement>(null);

  async function load() {
    const listed = await companyClientsApi.list(companyId);
    if (listed.ok) setAnswer(listed.data);
    else setProblem(problemOf(listed));
  }
  useEffect(() => void load(), [companyId]);

  const openForm = () => {
    setNotice(null);
    setDraft({ name: '', scopes: ['company'], until: dayOf(Date.now() + 90 * DAY_MS), key: creationKey(), busy: false, error: null });
  };

  async function create(current: Draft) {
    if (current.busy) return;
    setDraft({ ...current, busy: true, error: null });
    // The end of the chosen day, where the person is.
    const expiresAt = new Date(`${current.until}T23:59:59`).getTime();
    const created = await withFreshProof(() => companyClientsApi.create({ companyId, name: current.name.trim(), scopes: current.scopes, expiresAt: Number.isNaN(expiresAt) ? 0 : expiresAt, creationKey: current.key }));
    if (!created.ok) {
      setDraft({ ...current, busy: false, error: created.code === STEP_UP_CANCELLED ? null : problemOf(created) });
      return;
    }
    setDraft(null);
    setSecret({ client: created.data.client, secret: created.data.secret });
    setNotice(format(t.createdNotice, { name: created.data.client.name }));
    await load();
  }

  async function revoke(client: CompanyClient) {
    setRevoking(null);
    const revoked = await companyClientsApi.revoke(companyId, client.id);
    if (!revoked.ok) return setProblem(problemOf(revoked));
    setNotice(format(t.revokedNotice, { name: client.name }));
    await load();
  }

  const day = (at: number) => new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium' }).format(at);
  const scopeName = (scope: string) => {
    const entry = answer?.scopes.find((item) => item.scope === scope);
    return entry?.name ? format(t.moduleScope, { module: entry.name }) : scope === 'company' ? t.companyScope : scope;
  };
  const stateOf = (client: CompanyClient) => (client.revokedAt !== null ? 'revoked' : client.expiresAt <= Date.now() ? 'expired' : 'active');

  return (
    <section className="api-clients" aria-labelledby={titleId} aria-busy={answer === null || undefined}>
      <h3 id={titleId} className="subsection-title">{format(t.title, { company: companyName })}</h3>
      <p className="hint">{t.lead}</p>
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{notice}</p>}
      </div>
      {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
      <p>
        <button ref={createButton} type="button" className="button secondary" disabled={!answer} onClick={openForm}>
          {t.create}
        </button>
      </p>
      {answer?.clients.length === 0 && <p className="hint">{t.none}</p>}
      {answer && answer.clients.length > 0 && (
        <ul className="session-list" aria-label={format(t.listLabel, { company: companyName })}>
          {answer.clients.map((client) => {
            const state = stateOf(client);
            return (
              <li key={client.id} className="session-card" data-api-client={client.id} data-state={state}>
                <div className="session-head">
                  <span className="session-device">{client.name}</span>
                  <span className="badge" data-tone={state === 'active' ? 'good' : 'bad'}>
                    {t[state]}
                  </span>
                </div>
                <code className="hint client-id">{client.id}</code>
                <p className="hint connected-dates">
                  {[format(t.createdOn, { date: day(client.createdAt) }), format(t.validUntil, { date: day(client.expiresAt) }), client.lastUsedAt !== null ? format(t.lastUsed, { date: timeLabel(client.lastUsedAt, lang) }) : t.neverUsed].join(' · ')}
                </p>
                <ul className="connect-scopes">
                  {client.scopes.map((scope) => (
                    <li key={scope}>{scopeName(scope)}</li>
                  ))}
                </ul>
                {state !== 'revoked' && (
                  <button type="button" className="button secondary small" aria-label={format(t.revokeLabel, { name: client.name })} onClick={() => setRevoking(client)}>
                    {t.revoke}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}

      {draft && answer && (
        <ModalForm
          title={t.formTitle}
          onCancel={() => setDraft(null)}
          onSubmit={() => void create(draft)}
          error={draft.error && problemText(messages, draft.error)}
          disabled={draft.busy}
          cancelLabel={t.cancel}
          submitLabel={t.submit}
        >
          <TextField id={`${titleId}-name`} label={t.nameLabel} hint={t.nameHint} required maxLength={100} value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
          <fieldset className="field module-list">
            <legend>{t.scopesLabel}</legend>
            {answer.scopes.map((entry) => (
              <label key={entry.scope} className="check">
                <input
                  type="checkbox"
                  checked={draft.scopes.includes(entry.scope)}
                  onChange={(event) => setDraft({ ...draft, scopes: event.target.checked ? [...draft.scopes, entry.scope] : draft.scopes.filter((scope) => scope !== entry.scope) })}
                />
                <span>{scopeName(entry.scope)}</span>
              </label>
            ))}
          </fieldset>
          <TextField
            id={`${titleId}-until`}
            label={t.expiresLabel}
            hint={t.expiresHint}
            type="date"
            required
            min={dayOf(Date.now() + DAY_MS)}
            max={dayOf(Date.now() + (COMPANY_CLIENT_MAX_DAYS - 1) * DAY_MS)}
            value={draft.until}
            onChange={(until) => setDraft({ ...draft, until })}
          />
        </ModalForm>
      )}

      {secret && (
        <SecretOnce title={format(t.secretTitle, { name: secret.client.name })} idLabel={t.clientIdLabel} id={secret.client.id} secret={secret.secret} words={t} onDone={() => setSecret(null)} returnFocusTo={() => createButton.current} />
      )}

      {revoking && (
        <ConfirmModal
          title={format(t.revokeTitle, { name: revoking.name })}
          text={t.revokeText}
          cancelLabel={t.cancel}
          confirmLabel={t.revoke}
          onCancel={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking)}
        />
      )}
    </section>
  );
}
