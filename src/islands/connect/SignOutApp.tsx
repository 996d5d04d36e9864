import { useEffect } from 'react';
import { connectApi } from '../../api/connect';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { useAppRequest } from './use-app-request';

interface SignOutAppProps {
  messages: Pick<Messages, 'connect' | 'errors'>;
}

/**
 * /sign_out?request=ID: an app (or any link) asked to sign the person out without proving it is this browser's
 * session (functions/gateway/oidc/logout.ts). The page names the app when it is known and asks; only the
 * person's click, a same-site call bound to this session, signs them out. Either answer goes back to the app's
 * registered address when it gave one.
 */
export default function SignOutApp({ messages }: SignOutAppProps) {
  const c = messages.connect;
  const { id, view, setView, busy, heading, fail, decide: send } = useAppRequest<{ kind: 'asking'; app: string | null }>(messages.errors, c.noRequest);
  const decide = (signOut: boolean) => send(() => connectApi.decideSignOut(id, signOut));

  useEffect(() => {
    void connectApi.signOutRequest(id).then((answer) => (answer.ok ? setView({ kind: 'asking', app: answer.data.app }) : fail(answer)));
  }, []);

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
        <button type="button" className="button secondary" disabled={busy} aria-describedby="stay-signed-in-hint" onClick={() => void decide(false)}>
          {c.staySignedIn}
        </button>
      </div>
      {/* Either way the browser goes back to the app, which has signed itself out already (issue 47). */}
      <p id="stay-signed-in-hint" className="hint">
        {view.app ? format(c.staySignedInHint, { app: view.app }) : c.staySignedInHintUnknown}
      </p>
    </section>
  );
}
