import * as ERR from '../../schemas/error-names';
import { useEffect } from 'react';
import { accountApi } from '../../api/account';
import { connectApi } from '../../api/connect';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { ConnectRequestAnswer } from '../../schemas/oidc';
import { confirmItsYou } from '../../stores/step-up-state';
import { StepUpSlot } from '../shared/StepUpSlot';
import { useAppRequest } from './use-app-request';

interface ConnectAppProps {
  messages: Pick<Messages, 'connect' | 'errors' | 'stepUp'>;
}

/**
 * /connect?request=ID: an app asks to sign the person in (functions/gateway/oidc/). The page names the app and
 * what it will receive, asks "Confirm it's you" when the app wants a fresh or two-factor sign-in, and sends the
 * browser back to the app with the answer. With nothing to ask (a remembered consent after a proof) it goes on
 * by itself. A signed-out visitor never sees it: the edge sends them to sign in first and back here.
 */
export default function ConnectApp({ messages }: ConnectAppProps) {
  const c = messages.connect;
  // A request that is gone (decided, expired or unknown) has words of its own here.
  const { id, view, setView, busy, heading, fail, decide: send } = useAppRequest<{ kind: 'request'; request: ConnectRequestAnswer }>(messages.errors, c.noRequest, (refusal) =>
    refusal.code === ERR.OIDC_REQUEST_GONE ? c.gone : undefined,
  );
  const decide = (allow: boolean) => send(() => connectApi.decide(id, allow));
  /** "Not you?": the request is let go, this account signed out, and the next one signs in and comes back here. */
  const useAnother = () =>
    send(async () => {
      const released = await connectApi.release(id);
      if (!released.ok) return released;
      await accountApi.logout();
      return { ...released, data: { redirectTo: `/login?next=${encodeURIComponent(`/connect?request=${id}`)}` } };
    });

  async function load() {
    const answer = await connectApi.request(id);
    if (!answer.ok) return fail(answer);
    setView({ kind: 'request', request: answer.data });
    // Nothing to ask: a proof just made, and the consent remembered or the app trusted.
    if (answer.data.needs === 'ready') await decide(true);
  }

  useEffect(() => void load(), []);

  if (view.kind === 'loading') return <div className="spinner" role="status" aria-label={c.continuing} />;
  if (view.kind === 'leaving') return <p className="notice redirecting" role="status">{c.continuing}</p>;
  if (view.kind === 'problem') {
    return (
      <p className="error" role="alert">
        {view.text}
      </p>
    );
  }
  const { request } = view;
  const app = request.client.name;
  return (
    <section className="connect" aria-labelledby="connect-heading">
      <h2 id="connect-heading" ref={heading} tabIndex={-1} className="connect-app">
        {format(c.asks, { app })}
      </h2>
      <p className="hint connect-owner">{format(request.client.owner ? c.appOfCompany : c.appOfPlatform, { company: request.client.owner ?? '', address: request.client.address })}</p>
      <div className="connect-account">
        <p>{format(c.signedInAs, { account: request.account.name ? `${request.account.name} (${request.account.signIn})` : request.account.signIn })}</p>
        <button type="button" className="text-button connect-not-you" disabled={busy} onClick={() => void useAnother()}>
          {c.notYou}
        </button>
      </div>
      {request.needs === 'two-step-setup' ? (
        <>
          <p>{format(c.twoStepNeeded, { app })}</p>
          <div className="actions">
            <a className="button primary" href="/user_center#security">
              {c.setUpTwoStep}
            </a>
            <button type="button" className="button secondary" disabled={busy} onClick={() => void decide(false)}>
              {c.deny}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{c.willReceive}</p>
          <ul className="connect-scopes">
            {request.scopes.map((scope) => (
              <li key={scope}>{scope === 'company' && request.company ? format(c.companyNamed, { company: request.company }) : c.scopes[scope]}</li>
            ))}
          </ul>
          {request.needs === 'proof' ? <p className="connect-proof">{format(request.twoFactors ? c.proofNeededTwoFactors : c.proofNeeded, { app })}</p> : <p className="hint">{c.remembered}</p>}
          <div className="actions">
            {request.needs === 'proof' ? (
              <button
                type="button"
                className="button primary"
                disabled={busy}
                onClick={async () => {
                  if (await confirmItsYou()) await load();
                }}
              >
                {c.confirm}
              </button>
            ) : (
              <button type="button" className="button primary" disabled={busy} onClick={() => void decide(true)}>
                {c.allow}
              </button>
            )}
            <button type="button" className="button secondary" disabled={busy} onClick={() => void decide(false)}>
              {c.deny}
            </button>
          </div>
        </>
      )}
      <StepUpSlot messages={messages} />
    </section>
  );
}
