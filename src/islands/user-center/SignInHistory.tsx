import { useStore } from '@nanostores/react';
import type { Messages } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { $security } from '../../stores/security';
import { ScrollTable } from '../../ui/ScrollTable';
import { countryLabel, deviceLabel, signInMethodLabel, timeLabel } from './security-labels';

interface SignInHistoryProps {
  lang: Lang;
  messages: Pick<Messages, 'security'>;
}

/**
 * The person's sign-ins of the last 90 days, newest first, with marks on a sign-in from a new device or
 * country and on a run of failures. Its data is loaded with the sessions (SecuritySessions).
 */
export function SignInHistory({ lang, messages }: SignInHistoryProps) {
  const m = messages.security;
  const s = useStore($security);
  return (
    <section className="panel" aria-labelledby="sign-in-history-title">
      <h3 id="sign-in-history-title" className="subsection-title">{m.historyTitle}</h3>
      <p className="hint">{m.historyHint}</p>
      {s.phase === 'ready' && s.history.length === 0 ? (
        <p className="hint">{m.noHistory}</p>
      ) : (
        <ScrollTable label={m.historyTable} className="members sign-in-history" columns={[m.signInColumn, m.deviceColumn]}>
          {s.history.map((entry, i) => (
            <tr key={`${entry.at}-${i}`} data-result={entry.success ? 'success' : 'failure'}>
              <td>
                <span className="history-time">{timeLabel(entry.at, lang)}</span>
                <span className="history-detail">
                  {signInMethodLabel(entry, m)}
                  {entry.partner && ` · ${m.partner}`}
                </span>
                <span className="history-marks">
                  <span className="badge" data-tone={entry.success ? 'good' : 'bad'}>{entry.success ? m.success : m.failure}</span>
                  {entry.newDevice && <span className="badge" data-tone="waiting">{m.newDevice}</span>}
                  {entry.newCountry && <span className="badge" data-tone="waiting">{m.newCountry}</span>}
                  {entry.failureStreak && <span className="badge" data-tone="bad">{m.failureStreak}</span>}
                </span>
              </td>
              <td>
                <span className="history-device">{deviceLabel(entry, m)}</span>
                {/* The country and the network on lines of their own: a long IPv6 network wrapped under its
                    separator left "United States ·" dangling at a line's end (issue 47). */}
                <span className="history-detail">{countryLabel(entry.country, lang, m)}</span>
                {entry.network && (
                  <span className="history-detail history-network">
                    <span className="visually-hidden">{m.network}: </span>
                    {entry.network}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
