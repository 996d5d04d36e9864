import { useEffect, useState } from 'react';
import { supportViewApi } from '../../api/support-view';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { SupportCodeAnswer, SupportViewsOfMine } from '../../schemas/support-view';

interface SupportCodeProps {
  lang: Lang;
  messages: Pick<Messages, 'security' | 'errors'>;
}

/**
 * "Support code" (issue 44): a 6-digit code the person reads to platform support on the phone, so support may view
 * the portal as they see it (read-only, at most 30 minutes). It works once, for 15 minutes; a new one ends the last.
 * Above it, each view of the account open now, with End: it ends at once, and the person is told.
 */
export function SupportCode({ lang, messages }: SupportCodeProps) {
  const m = messages.security;
  const [shown, setShown] = useState<SupportCodeAnswer | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [views, setViews] = useState<SupportViewsOfMine>([]);
  const [ended, setEnded] = useState(false);
  // In the platform's zone, as the view's own banners and the console say it (SupportBanner.tsx, OpsSupport.tsx).
  const clock = (at: number) => new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Asia/Shanghai' }).format(at);

  useEffect(() => {
    void supportViewApi.views().then((answer) => answer.ok && setViews(answer.data));
  }, []);

  async function endView(id: string) {
    setBusy(true);
    const answer = await supportViewApi.endView(id);
    setBusy(false);
    // Ended now or already: either way it is gone from the list.
    if (answer.ok || answer.code === 'SV0008') {
      setViews((current) => current.filter((view) => view.id !== id));
      setEnded(true);
      setError(null);
    } else setError(problemOf(answer));
  }

  async function getCode() {
    setBusy(true);
    const answer = await supportViewApi.code();
    setBusy(false);
    if (answer.ok) {
      setShown(answer.data);
      setError(null);
    } else setError(problemOf(answer));
  }

  const until = shown ? clock(shown.expiresAt) : '';
  return (
    <section className="panel" aria-labelledby="support-code-title">
      <h3 id="support-code-title" className="subsection-title">{m.supportCodeTitle}</h3>
      {views.map((view) => (
        <div key={view.id} className="acting-banner support-banner">
          <p>
            <strong>{format(m.supportViewing, { operator: view.operator, time: clock(view.until) })}</strong>
          </p>
          <button type="button" className="button secondary small" disabled={busy} onClick={() => void endView(view.id)}>
            {m.supportViewEnd}
          </button>
        </div>
      ))}
      <p className="hint">{m.supportCodeHint}</p>
      <div className="live-region" role="status" aria-live="polite">
        {ended && <p>{m.supportViewEnded}</p>}
        {shown && (
          <p className="support-code">
            {m.supportCodeIs} <strong className="support-code-digits">{shown.code}</strong>
            <span className="hint"> {format(m.supportCodeUntil, { time: until })}</span>
          </p>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {problemText(messages, error)}
        </p>
      )}
      <button type="button" className="button secondary small" disabled={busy} onClick={() => void getCode()}>
        {shown ? m.supportCodeAgain : m.supportCodeGet}
      </button>
    </section>
  );
}
