import { useEffect, useState, type FormEvent } from 'react';
import { companySsoApi } from '../../api/company-sso';
import type { ApiResult } from '../../api/result';
import type { Messages } from '../../i18n';
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
  const [connection, setConnection] = useState<CompanySsoConnection | null | undefined>(undefined);
  const [newDomain, setNewDomain] = useState('');
  /** The domain whose removal waits for its confirmation. */
  const [removing, setRemoving] = useState<string | null>(null);
  const [form, setForm] = useState({ issuer: '', clientId: '', clientSecret: '', emailClaim: 'email' });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const titleId = `company-sso-${companyId}`;

  async function load() {
    const [listed, connected] = await Promise.all([companySsoApi.domains(companyId), companySsoApi.connection(companyId)]);
    if (listed.ok) setDomains(listed.data);
    if (connected.ok) {
      setConnection(connected.data);
      if (connected.data) setForm({ issuer: connected.data.issuer, clientId: connected.data.clientId, clientSecret: '', emailClaim: connected.data.emailClaim });
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
    await load();
    return true;
  }

  const addDomain = async (event: FormEvent) => {
    event.preventDefault();
    if (await change(() => withFreshProof(() => companySsoApi.addDomain(companyId, newDomain.trim())))) setNewDomain('');
  };
  const remove = async (domain: string) => {
    if (await change(() => withFreshProof(() => companySsoApi.removeDomain(companyId, domain)), t.removed.replace('{domain}', domain))) setRemoving(null);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const { clientSecret, ...rest } = form;
    await change(() => withFreshProof(() => companySsoApi.saveConnection({ companyId, ...rest, ...(clientSecret ? { clientSecret } : {}) })), t.saved);
    setForm((f) => ({ ...f, clientSecret: '' }));
  };
  const toggle = (key: 'disabled' | 'ssoOnly' | 'admitDomain', value: boolean) => void change(() => withFreshProof(() => companySsoApi.saveSettings({ companyId, [key]: value })));

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
              {removing === d.domain ? (
                <div className="domain-remove" role="group" aria-label={`${t.remove} ${d.domain}`}>
                  <p className="hint">{t.removeConfirm.replace('{domain}', d.domain)}</p>
                  <div className="actions">
                    <button type="button" className="button danger" disabled={busy} onClick={() => void remove(d.domain)}>
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

      <h4 className="company-sso-subtitle">{t.connectionTitle}</h4>
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
          hint={connection ? t.clientSecretKept : undefined}
          required={!connection}
        />
        <TextField id={`${titleId}-claim`} label={t.emailClaim} value={form.emailClaim} onChange={(emailClaim) => setForm({ ...form, emailClaim })} autoComplete="off" />
        <button type="submit" className="button primary" disabled={busy || !form.issuer.trim() || !form.clientId.trim() || (!connection && !form.clientSecret)}>
          {t.save}
        </button>
      </form>

      {connection && (
        <>
          <h4 className="company-sso-subtitle">{t.settingsTitle}</h4>
          <fieldset className="checks" disabled={busy}>
            <legend className="visually-hidden">{t.settingsTitle}</legend>
            <label className="check">
              <input type="checkbox" checked={!connection.disabled} onChange={(e) => toggle('disabled', !e.target.checked)} />
              <span>{t.enabled}</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={connection.ssoOnly} onChange={(e) => toggle('ssoOnly', e.target.checked)} />
              <span>{t.ssoOnly}</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={connection.admitDomain} onChange={(e) => toggle('admitDomain', e.target.checked)} />
              <span>{t.admitDomain}</span>
            </label>
          </fieldset>
          <h4 className="company-sso-subtitle">{t.lastSignIns}</h4>
          {connection.lastSignIns.length === 0 ? (
            <p className="hint">{t.noSignIns}</p>
          ) : (
            <ul className="session-list" aria-label={t.lastSignIns}>
              {connection.lastSignIns.map((s, i) => (
                <li key={`${s.at}-${i}`} className="session-card">
                  <div className="session-head">
                    <span className="session-device">{s.name || s.email}</span>
                    <span className="badge">{t.outcomes[s.outcome]}</span>
                  </div>
                  <p className="hint sign-in-when">
                    {s.email} · {timeLabel(s.at, lang)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
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
