import { useStore } from '@nanostores/react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import { $security, $signOutQuestion, answerSignOut, forgetDevice } from '../../stores/security';
import { Modal } from '../../ui/Modal';
import { countryLabel, deviceLabel, timeLabel } from './security-labels';

interface KnownDevicesProps {
  lang: Lang;
  messages: Pick<Messages, 'security' | 'errors'>;
}

/**
 * "Your devices" (issue 44): the devices the person signed in from in the last 90 days (device, first and last use,
 * country; this one marked), each with "Forget" after a confirm dialog. A password sign-in from any other device needs
 * a code. Its data is loaded with the sessions (SecuritySessions).
 */
export function KnownDevices({ lang, messages }: KnownDevicesProps) {
  const m = messages.security;
  const s = useStore($security);
  const question = useStore($signOutQuestion);
  return (
    <section className="panel" aria-labelledby="devices-title" aria-busy={s.phase === 'loading' || undefined}>
      <h3 id="devices-title" className="subsection-title">{m.devicesTitle}</h3>
      <p className="hint">{m.devicesHint}</p>
      <ul className="session-list">
        {s.devices.map((entry) => {
          const device = deviceLabel(entry, m);
          return (
            <li key={entry.id} className="session-card" data-current={entry.current || undefined}>
              <div className="session-head">
                <span className="session-device">{device}</span>
                {entry.current && <span className="badge" data-tone="good">{m.thisDevice}</span>}
              </div>
              <dl className="session-facts">
                <div>
                  <dt>{m.country}</dt>
                  <dd>{countryLabel(entry.country, lang, m)}</dd>
                </div>
                <div>
                  <dt>{m.firstUsed}</dt>
                  <dd>{timeLabel(entry.firstUsedAt, lang)}</dd>
                </div>
                <div>
                  <dt>{m.lastUsed}</dt>
                  <dd>{timeLabel(entry.lastUsedAt, lang)}</dd>
                </div>
              </dl>
              {entry.trustedUntil && <p className="hint">{format(m.trustedUntil, { date: timeLabel(entry.trustedUntil, lang) })}</p>}
              <button
                type="button"
                className="button secondary small"
                disabled={Boolean(s.busy)}
                aria-label={format(m.forgetLabel, { device })}
                onClick={() => void forgetDevice(entry.id, device)}
              >
                {m.forget}
              </button>
            </li>
          );
        })}
      </ul>
      {s.phase === 'ready' && s.devices.length === 0 && <p className="hint">{m.noDevices}</p>}

      {question?.kind === 'forget' && (
        <Modal title={m.confirmForgetTitle} onCancel={() => answerSignOut(false)}>
          <p>{format(m.confirmForgetText, { device: question.device })}</p>
          {/* Cancel first: the dialog opens with focus on it, so Enter forgets nothing by accident. */}
          <div className="modal-actions">
            <button type="button" className="button secondary" onClick={() => answerSignOut(false)}>
              {m.cancel}
            </button>
            <button type="button" className="button danger" onClick={() => answerSignOut(true)}>
              {m.confirmForget}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
