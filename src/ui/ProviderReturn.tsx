import { useEffect, useRef } from 'react';

/**
 * The parts of the pages a sign-in provider sends the person back to (/wechat_callback, /company_sso_callback) that
 * read alike: the way back to /login, a return that went wrong, and the status line of the code form that follows.
 */

export function BackToLogin({ label }: { label: string }) {
  return (
    <p className="link-sign-in-alt">
      <a href="/login">{label}</a>
    </p>
  );
}

/** Cancelled at the provider or refused here: the page's heading takes focus so a screen reader hears it, then the problem. */
export function ReturnProblem({ title, text, backLabel }: { title: string; text: string; backLabel: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="wechat-callback">
      <h2 ref={heading} tabIndex={-1} className="subsection-title">
        {title}
      </h2>
      <p className="error" role="alert">
        {text}
      </p>
      <BackToLogin label={backLabel} />
    </div>
  );
}

/**
 * Under a code form: "code sent" in a polite live region, which stays while the code is typed (it is the sending's
 * news, not a problem an edit clears), else the form's problem as an alert.
 */
export function CodeStatus({ sent, sentText, problem }: { sent: boolean; sentText: string; problem: string | null }) {
  return (
    <>
      <div className="live-region" role="status" aria-live="polite">
        {sent && <p className="notice">{sentText}</p>}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
