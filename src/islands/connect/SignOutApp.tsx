import { useEffect, useRef, useState } from 'react';
import { connectApi } from '../../api/connect';
import type { ApiResult } from '../../api/client';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';

interface SignOutAppProps {
  messages: Pick<Messages, 'connect' | 'errors'>;
}

type View = { kind: 'loading' } | { kind: 'asking'; app: string | null } | { kind: 'leaving' } | { kind: 'problem'; text: string };

/**
 * /sign_out?request=ID: an app (or any link) asked to sign the person out without proving it is this browser's
 * session (functions/gateway/oidc/logout.ts). The page names the app when it is known and asks; only the
 * person's click, a same-site call bound to this session, signs them out. Either answer goes back to the app's
 * registered address when it gave one.
 */
export default function SignOutApp({ messages }: SignOutAppProps) {
  const c = messages.connect;
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const id = new URLSearchParams(window.location.search).get('request') ?? '';

  const fail = (result: Extract<ApiResult<unknown>, { ok: false }>) =>
    setView({ kind: 'problem', text: problemText({ errors: messages.errors }, { code: result.code, message: result.message, traceId: result.traceId }) });

  async function decide(signOut: boolean) {
    setBusy(true);
    const answer = await connectApi.decideSignOut(id, signOut);
    setBusy(false);
    if (!answer.ok) return fail(answer);
    setView({ kind: 'leaving' });
    window.location.assign(answer.data.redirectTo);
  }

  useEffect(() => {
    void connectApi.signOutRequest(id).then((answer) => (answer.ok ? setView({ kind: 'asking', app: answer.data.app }) : fail(answer)));
  }, []);
  useEffect(() => heading.current?.focus(), [view.kind]);

  if (view.kind === 'loading') return <div className="spinner" role="status" aria-label={c.leaving} />;
  if (view.kind === 'leaving') return <p className="notice redirecting" role="status">{c.leaving}</p>;
  if (view.kind === 'problem') {
    return (
      <div className="connect">
        <p className="error" role="alert">
          {view.text}
        </p>
        <a className="button secondary" href="/login">
          {c.toPortal}
        </a>
      </div>
    );
  }
  return (
    <section className="connect" aria-labelledby="sign-out-heading">
      {/* The app's name is text from the client's registration: React renders it as text, never markup. */}
      <h2 id="sign-out-heading" ref={heading} tabIndex={-1} className="connect-app">
        {view.app ? format(c.signOutAsks, { app: view.app }) : c.signOutAsksUnknown}
      </h2>
      <p>{c.signOutWhat}</p>
      <div className="actions">
        <button type="button" className="button primary" disabled={busy} onClick={() => void decide(true)}>
          {c.signOut}
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={() => void decide(false)}>
          {c.staySignedIn}
        </button>
      </div>
    </section>
  );
}
