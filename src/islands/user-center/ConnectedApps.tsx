import { useEffect, useState } from 'react';
import { connectApi } from '../../api/connect';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { ConnectedApp } from '../../schemas/oidc';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { timeLabel } from './security-labels';

interface ConnectedAppsProps {
  lang: Lang;
  messages: Pick<Messages, 'connect' | 'security' | 'errors'>;
}

type Problem = { code: string; message: string; traceId?: string };

/**
 * "Connected apps": the apps the person signed in to with their portal account (OpenID Connect), what each may
 * receive, and Disconnect, which forgets the consent, ends the app's tokens and signs the person out of it.
 */
export function ConnectedApps({ lang, messages }: ConnectedAppsProps) {
  const c = messages.connect;
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState<ConnectedApp | null>(null);
  const [busy, setBusy] = useState(false);

  async function load() {
    const answer = await connectApi.connectedApps();
    if (answer.ok) setApps(answer.data);
    else setProblem(answer);
  }
  useEffect(() => void load(), []);

  async function disconnect(app: ConnectedApp) {
    setAsking(null);
    setBusy(true);
    const answer = await connectApi.disconnect(app.clientId);
    setBusy(false);
    if (!answer.ok) return setProblem(answer);
    setNotice(format(c.disconnected, { app: app.name }));
    await load();
  }

  return (
    <section className="panel" aria-labelledby="connected-apps-title" aria-busy={apps === null || undefined}>
      <h3 id="connected-apps-title" className="subsection-title">{c.connectedApps}</h3>
      <p className="hint">{c.connectedLead}</p>
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{notice}</p>}
      </div>
      {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
      {apps !== null && apps.length === 0 && <p className="hint">{c.noApps}</p>}
      {apps !== null && apps.length > 0 && (
        <ul className="session-list">
          {apps.map((app) => (
            <li key={app.clientId} className="session-card">
              <div className="session-head">
                <span className="session-device">{app.name}</span>
              </div>
              <p className="hint connected-dates">
                {[app.grantedAt !== null && format(c.since, { date: timeLabel(app.grantedAt, lang) }), app.lastUsedAt !== null && format(c.lastUsed, { date: timeLabel(app.lastUsedAt, lang) })]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <ul className="connect-scopes">
                {app.scopes.filter((scope): scope is keyof typeof c.scopes => scope in c.scopes).map((scope) => (
                  <li key={scope}>{c.scopes[scope]}</li>
                ))}
              </ul>
              <button type="button" className="button secondary small" disabled={busy} aria-label={format(c.disconnectOne, { app: app.name })} onClick={() => setAsking(app)}>
                {c.disconnect}
              </button>
            </li>
          ))}
        </ul>
      )}
      {asking && (
        <ConfirmModal
          title={format(c.disconnectOne, { app: asking.name })}
          text={format(c.disconnectText, { app: asking.name })}
          cancelLabel={messages.security.cancel}
          confirmLabel={c.disconnect}
          onCancel={() => setAsking(null)}
          onConfirm={() => void disconnect(asking)}
        />
      )}
    </section>
  );
}
