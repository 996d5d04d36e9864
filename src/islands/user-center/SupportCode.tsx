import { useState } from 'react';
import { supportViewApi } from '../../api/support-view';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { SupportCodeAnswer } from '../../schemas/support-view';

interface SupportCodeProps {
  lang: Lang;
  messages: Pick<Messages, 'security' | 'errors'>;
}

/**
 * "Support code" (issue 44): a 6-digit code the person reads to platform support on the phone, so support may view
 * the portal as they see it (read-only, at most 30 minutes). It works once, for 15 minutes; a new one ends the last.
 */
export function SupportCode({ lang, messages }: SupportCodeProps) {
  const m = messages.security;
  const [shown, setShown] = useState<SupportCodeAnswer | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  async function getCode() {
    setBusy(true);
    const answer = await supportViewApi.code();
    setBusy(false);
    if (answer.ok) {
      setShown(answer.data);
      setError(null);
    } else setError(problemOf(answer));
  }

  const until = shown ? new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }).format(shown.expiresAt) : '';
  return (
    <section className="panel" aria-labelledby="support-code-title">
      <h3 id="support-code-title" className="subsection-title">{m.supportCodeTitle}</h3>
      <p className="hint">{m.supportCodeHint}</p>
      <div className="live-region" role="status" aria-live="polite">
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
