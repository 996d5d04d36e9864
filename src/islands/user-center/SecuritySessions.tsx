import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { $security, $signOutQuestion, answerSignOut, loadSecurity, signOutOthers, signOutSession } from '../../stores/security';
import { Modal } from '../../ui/Modal';
import { countryLabel, deviceLabel, timeLabel } from './security-labels';
import { format } from '../../i18n/format';

interface SecuritySessionsProps {
  lang: Lang;
  messages: Pick<Messages, 'security' | 'errors'>;
}

/**
 * "Where you are signed in": every live session of the person (this one marked), signing one other device
 * out or all of them, each after a confirm dialog. Loads the Security section's data for SignInHistory too.
 */
export function SecuritySessions({ lang, messages }: SecuritySessionsProps) {
  const m = messages.security;
  const s = useStore($security);
  const question = useStore($signOutQuestion);

  useEffect(() => {
    void loadSecurity();
  }, []);

  const others = s.sessions.filter((session) => !session.current);
  return (
    <section className="panel" aria-labelledby="sessions-title" aria-busy={s.phase === 'loading' || undefined}>
      <h3 id="sessions-title" className="subsection-title">{m.sessionsTitle}</h3>
      <p className="hint">{m.sessionsHint}</p>
      <div className="live-region" role="status" aria-live="polite">
        {s.notice && <p className="notice">{problemText(messages, s.notice)}</p>}
      </div>
      {s.error && <p className="error" role="alert">{problemText(messages, s.error)}</p>}
      <ul className="session-list">
        {s.sessions.map((session) => {
          const device = deviceLabel(session, m);
          return (
            <li key={session.id} className="session-card" data-current={session.current || undefined}>
              <div className="session-head">
                <span className="session-device">{device}</span>
                {session.current && <span className="badge" data-tone="good">{m.thisDevice}</span>}
                {session.partner && <span className="badge">{m.partnerSite}</span>}
              </div>
              <dl className="session-facts">
                <div>
                  <dt>{m.country}</dt>
                  <dd>{countryLabel(session.country, lang, m)}</dd>
                </div>
                <div>
                  <dt>{m.signedInAt}</dt>
                  <dd>{timeLabel(session.createdAt, lang)}</dd>
                </div>
                <div>
                  <dt>{m.lastActive}</dt>
                  <dd>{timeLabel(session.lastSeenAt, lang)}</dd>
                </div>
              </dl>
              {!session.current && (
                <button
                  type="button"
                  className="button secondary small"
                  disabled={Boolean(s.busy)}
                  aria-label={format(m.signOutLabel, { device })}
                  onClick={() => void signOutSession(session.id, device)}
                >
                  {m.signOut}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {s.phase === 'ready' && others.length === 0 && <p className="hint">{m.noOthers}</p>}
      <div className="form-actions">
        <button type="button" className="button secondary" disabled={Boolean(s.busy) || others.length === 0} onClick={() => void signOutOthers()}>
          {m.signOutOthers}
        </button>
      </div>

      {question && question.kind !== 'forget' && (
        <Modal title={question.kind === 'one' ? m.confirmTitle : m.confirmOthersTitle} onCancel={() => answerSignOut(false)}>
          <p>{question.kind === 'one' ? format(m.confirmText, { device: question.device }) : m.confirmOthersText}</p>
          {/* Cancel comes first: the dialog opens with focus on it, so Enter does not sign anyone out by accident. */}
          <div className="modal-actions">
            <button type="button" className="button secondary" onClick={() => answerSignOut(false)}>
              {m.cancel}
            </button>
            <button type="button" className="button danger" onClick={() => answerSignOut(true)}>
              {m.confirm}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
