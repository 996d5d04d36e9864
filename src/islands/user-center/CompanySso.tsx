import { useEffect, useRef, useState, type FormEvent } from 'react';
import { companySsoApi } from '../../api/company-sso';
import type { ApiResult } from '../../api/result';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { COMPANY_SSO_CALLBACK_PATH, type CompanyDomain, type CompanySsoConnection } from '../../schemas/company-sso';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import { TextField } from '../../ui/TextField';
import { timeLabel } from './security-labels';
import './company-sso.css';

type Words = Pick<Messages, 'companySso' | 'errors'>;

interface Props {
  lang: Lang;
  companyId: string;
  companyName: string;
  messages: Words;
}

/**
 * A company's own sign-in (issue 43, its administrators): the e-mail domains with their state (add, the TXT record to
 * publish, check), the OpenID provider (issuer, client id, client secret never shown again, the e-mail claim), its
 * rules (on, SSO only, admit people from the domains) and the last sign-ins through it. Changes ask "Confirm it's
 * you" first when the session's proof is stale; each is a row of the company's activity.
 */
export function CompanySso({ lang, companyId, companyName, messages }: Props) {
  const t = messages.companySso;
  const [domains, setDomains] = useState<CompanyDomain[] | null>(null);
  const [connections, setConnections] = useState<CompanySsoConnection[] | undefined>(undefined);
  /** The connection the form changes; null: a new one. */
  const [editing, setEditing] = useState<string | null>(null);
  const [newDomain, setNewDomain] = useState('');
  /** The domain whose removal waits for its confirmation. */
  const [removing, setRemoving] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  // The confirm step takes the focus where the Remove button was.
  useEffect(() => {
    if (removing) confirmRef.current?.focus();
  }, [removing]);
  const [form, setForm] = useState({ issuer: '', clientId: '', clientSecret: '', emailClaim: 'email' });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const titleId = `company-sso-${companyId}`;

  const edit = (connection: CompanySsoConnection | null) => {
    setEditing(connection?.id ?? null);
    setForm(connection ? { issuer: connection.issuer, clientId: connection.clientId, clientSecret: '', emailClaim: connection.emailClaim } : { issuer: '', clientId: '', clientSecret: '', emailClaim: 'email' });
  };

  /** Reads everything again; the form keeps the connection it changes (the first one at the start). */
  async function load(keep: string | null | undefined = undefined) {
    const [listed, connected] = await Promise.all([companySsoApi.domains(companyId), companySsoApi.connections(companyId)]);
    if (listed.ok) setDomains(listed.data);
    if (connected.ok) {
      setConnections(connected.data);
      const target = keep === undefined ? connected.data[0] : connected.data.find((c) => c.id === keep);
      edit(target ?? null);
    }
    if (!listed.ok) setProblem(listed);
    else if (!connected.ok) setProblem(connected);
  }
  useEffect(() => void load(), [companyId]);

  /** Runs a change, then reads everything again; a refusal is said, a cancelled "Confirm it's you" is not. */
  async function change<T>(run: () => Promise<ApiResult<T>>, done?: string): Promise<boolean> {
    setBusy(true);
    setNotice(null);
    setProblem(null);
    const answer = await run();
    setBusy(false);
    if (!answer.ok) {
      if (answer.code !== STEP_UP_CANCELLED) setProblem(answer);
      return false;
    }
    if (done) setNotice(done);
    await load(editing);
    return true;
  }

  const addDomain = async (event: FormEvent) => {
    event.preventDefault();
    if (await change(() => withFreshProof(() => companySsoApi.addDomain(companyId, newDomain.trim())))) setNewDomain('');
  };
  const remove = async (domain: string) => {
    if (await change(() => withFreshProof(() => companySsoApi.removeDomain(companyId, domain)), format(t.removed, { domain }))) setRemoving(null);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const { clientSecret, ...rest } = form;
    setBusy(true);
    setNotice(null);
    setProblem(null);
    const answer = await withFreshProof(() => companySsoApi.saveConnection({ companyId, ...rest, ...(editing ? { connectionId: editing } : {}), ...(clientSecret ? { clientSecret } : {}) }));
    setBusy(false);
    if (!answer.ok) {
      if (answer.code !== STEP_UP_CANCELLED) setProblem(answer);
      return;
    }
    setNotice(t.saved);
    await load(answer.data.id);
  };
  const toggle = (connectionId: string, key: 'disabled' | 'ssoOnly' | 'admitDomain', value: boolean) =>
    void change(() => withFreshProof(() => companySsoApi.saveSettings({ companyId, connectionId, [key]: value })));
  const route = (domain: string, connectionId: string) => void change(() => withFreshProof(() => companySsoApi.routeDomain(companyId, domain, connectionId)));
  const current = connections?.find((c) => c.id === editing) ?? null;
  const several = (connections?.length ?? 0) > 1;
  const nameOf = (c: CompanySsoConnection) => `${c.issuer} · ${c.clientId}`;

  return (
    <section className="company-sso" aria-labelledby={titleId} aria-busy={domains === null || undefined}>
      <h3 id={titleId} className="subsection-title">
        {t.title} · {companyName}
      </h3>
      <p className="hint">{t.lead}</p>
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{notice}</p>}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problemText(messages, problem)}
        </p>
      )}

      <h4 className="company-sso-subtitle">{t.domainsTitle}</h4>
      {domains?.length === 0 && <p className="hint">{t.noDomains}</p>}
      {domains && domains.length > 0 && (
        <ul className="session-list" aria-label={t.domainsTitle}>
          {domains.map((d) => (
            <li key={d.domain} className="session-card" data-domain={d.domain}>
              <div className="session-head">
                <strong className="session-device">{d.domain}</strong>
                <span className="badge" data-tone={d.state === 'proved' ? 'good' : 'warn'}>
                  {t.states[d.state]}
                </span>
              </div>
              {d.state === 'pending' && (
                <>
                  <p className="hint">{t.recordHelp}</p>
                  <dl className="record">
                    <dt>{t.recordName}</dt>
                    <dd>
                      <code>{d.recordName}</code>
                    </dd>
                    <dt>{t.recordValue}</dt>
                    <dd>
                      <code className="record-value">{d.recordValue}</code>
                    </dd>
                  </dl>
                  <button type="button" className="button secondary" disabled={busy} onClick={() => void change(() => companySsoApi.checkDomain(companyId, d.domain))}>
                    {t.check} {d.domain}
                  </button>
                </>
              )}
              {d.state === 'proved' && several && connections && (
                <label className="domain-route">
                  <span>{t.routeLabel}</span>
                  <select value={d.connectionId ?? connections[0]!.id} disabled={busy} onChange={(e) => route(d.domain, e.target.value)}>
                    {connections.map((c) => (
                      <option key={c.id} value={c.id}>
                        {nameOf(c)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {removing === d.domain ? (
                <div className="domain-remove" role="group" aria-label={`${t.remove} ${d.domain}`}>
                  <p className="hint">{format(t.removeConfirm, { domain: d.domain })}</p>
                  <div className="actions">
                    <button ref={confirmRef} type="button" className="button danger" disabled={busy} onClick={() => void remove(d.domain)}>
                      {t.removeYes}
                    </button>
                    <button type="button" className="button secondary" disabled={busy} onClick={() => setRemoving(null)}>
                      {t.cancel}
                    </button>
                  </div>
                </div>
              ) : (
                <button type="button" className="button secondary" disabled={busy} onClick={() => setRemoving(d.domain)} aria-label={`${t.remove} ${d.domain}`}>
                  {t.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="domain-form" onSubmit={(e) => void addDomain(e)} noValidate>
        <TextField id={`${titleId}-domain`} label={t.domain} value={newDomain} onChange={setNewDomain} placeholder="example.com" autoComplete="off" maxLength={253} />
        <button type="submit" className="button secondary" disabled={busy || !newDomain.trim()}>
          {t.addDomain}
        </button>
      </form>

      {connections && connections.length > 0 && (
        <>
          <h4 className="company-sso-subtitle">{t.connectionsTitle}</h4>
          <ul className="session-list" aria-label={t.connectionsTitle}>
            {connections.map((c) => (
              <li key={c.id} className="session-card connection-card" data-connection={c.id}>
                <div className="session-head">
                  <strong className="session-device">{nameOf(c)}</strong>
                  <span className="badge" data-tone={c.disabled ? 'warn' : 'good'}>
                    {c.disabled ? t.off : t.on}
                  </span>
                </div>
                <p className="hint">{c.domains.length ? format(t.connectionDomains, { domains: c.domains.join(', ') }) : t.connectionNoDomains}</p>
                <fieldset className="checks" disabled={busy}>
                  <legend className="visually-hidden">
                    {t.settingsTitle} · {nameOf(c)}
                  </legend>
                  <label className="check">
                    <input type="checkbox" checked={!c.disabled} onChange={(e) => toggle(c.id, 'disabled', !e.target.checked)} />
                    <span>{t.enabled}</span>
                  </label>
                  <label className="check">
                    <input type="checkbox" checked={c.ssoOnly} onChange={(e) => toggle(c.id, 'ssoOnly', e.target.checked)} />
                    <span>{t.ssoOnly}</span>
                  </label>
                  <label className="check">
                    <input type="checkbox" checked={c.admitDomain} onChange={(e) => toggle(c.id, 'admitDomain', e.target.checked)} />
                    <span>{t.admitDomain}</span>
                  </label>
                </fieldset>
                <h5 className="company-sso-minor">{t.lastSignIns}</h5>
                {c.lastSignIns.length === 0 ? (
                  <p className="hint">{t.noSignIns}</p>
                ) : (
                  <ul className="sign-in-list" aria-label={several ? `${t.lastSignIns} · ${nameOf(c)}` : t.lastSignIns}>
                    {c.lastSignIns.map((s, i) => (
                      <li key={`${s.at}-${i}`}>
                        <span className="session-device">{s.name || s.email}</span> <span className="badge">{t.outcomes[s.outcome]}</span>
                        <p className="hint sign-in-when">
                          {s.email} · {timeLabel(s.at, lang)}
                        </p>
                      </li>
                    ))}
                  </ul>
                )}
                {editing !== c.id && (
                  <button type="button" className="button secondary" disabled={busy} onClick={() => edit(c)} aria-label={`${t.editConnection} ${nameOf(c)}`}>
                    {t.editConnection}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {editing !== null && (
            <button type="button" className="button secondary" disabled={busy} onClick={() => edit(null)}>
              {t.addConnection}
            </button>
          )}
        </>
      )}

      <h4 className="company-sso-subtitle">{current ? (several ? format(t.editingConnection, { name: nameOf(current) }) : t.connectionTitle) : connections?.length ? t.newConnection : t.connectionTitle}</h4>
      <p className="hint redirect-uri">{formatWithCode(t.redirectUri, `${location.origin}${COMPANY_SSO_CALLBACK_PATH}`)}</p>
      <form onSubmit={(e) => void save(e)} noValidate>
        <TextField id={`${titleId}-issuer`} label={t.issuer} value={form.issuer} onChange={(issuer) => setForm({ ...form, issuer })} type="url" placeholder="https://login.example.com" autoComplete="off" required />
        <TextField id={`${titleId}-client`} label={t.clientId} value={form.clientId} onChange={(clientId) => setForm({ ...form, clientId })} autoComplete="off" required />
        <TextField
          id={`${titleId}-secret`}
          label={t.clientSecret}
          value={form.clientSecret}
          onChange={(clientSecret) => setForm({ ...form, clientSecret })}
          type="password"
          autoComplete="new-password"
          hint={current ? t.clientSecretKept : undefined}
          required={!current}
        />
        <TextField id={`${titleId}-claim`} label={t.emailClaim} value={form.emailClaim} onChange={(emailClaim) => setForm({ ...form, emailClaim })} autoComplete="off" />
        <button type="submit" className="button primary" disabled={busy || !form.issuer.trim() || !form.clientId.trim() || (!current && !form.clientSecret)}>
          {t.save}
        </button>
      </form>
    </section>
  );
}

/** The sentence with its `{uri}` as code, so a long address wraps inside it instead of widening the page. */
function formatWithCode(sentence: string, uri: string) {
  const [before, after = ''] = sentence.split('{uri}');
  return (
    <>
      {before}
      <code>{uri}</code>
      {after}
    </>
  );
}
