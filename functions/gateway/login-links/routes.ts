import { Hono, type Context } from 'hono';
import {
  LINK_PARAM,
  passEmailLoginRequest,
  passEmailSendRequest,
  shareLinkRequest,
  shareLoginRequest,
  type ShareLinkAnswer,
} from '../../../src/schemas/login-links';
import { SITE_HEADER } from '../../contract';
import type { WorkerEnv } from '../../env';
import { findUserById, findUserByIdentity } from '../identity/db/people';
import { clientIp, GatewayError, ok, requestLang, traceIdOf } from '../errors';
import { now } from '../../contract';
import { afterTheAnswer, deliver } from '../delivery';
import { emailRecipient } from '../identity/sign-in-names';
import { consumeLink, issueLink, LINK_LIFETIME_MS, passLinkMessage, withdrawLink } from './service';
import type { LinkKind } from './db';
import { requireSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { requireFreshProof } from '../identity/proof';
import { clientInfo } from '../sessions/devices';
import { signedIn } from '../sign-in/service';
import { recordFailedSignIn } from '../sign-in/history';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

type LinkEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

/**
 * The page a link opens, on the configured origin of the site the call came to (PORTAL_ORIGIN, or
 * NAVIGATOR_ORIGIN when the edge says the navigator host; SITE_HEADER is set by the edge alone). Never on the
 * request's Host: a forged Host would otherwise mail a victim a live link to the forger's host. The language
 * is part of the link: those pages have no language toggle.
 */
function linkUrl(c: Context<LinkEnv>, page: 'pass_email_login' | 'share_login', param: string, token: string): string {
  const config = c.get('config');
  const origin = c.req.header(SITE_HEADER) === 'navigator' ? config.navigatorOrigin : config.portalOrigin;
  // Refuse rather than guess: a deployed Worker does not start without these (startup-check.ts).
  if (!origin) throw new GatewayError(ERR.SERVER_ERROR);
  return `${origin}/${page}?${new URLSearchParams({ [param]: token, lang: requestLang(c) })}`;
}

/** Uses a link and signs its person in, with the same answer (and cookies) as the sign-in screen. */
async function signInWithLink(c: Context<LinkEnv>, kind: LinkKind, token: string) {
  const userId = await consumeLink(c.env.DB, kind, token, now(c), (refusedUserId) =>
    // A spent or expired link of a known account goes into its sign-in history.
    recordFailedSignIn(c.env.DB, { userId: refusedUserId, at: now(c), method: 'link', partner: false, client: clientInfo(c) }),
  );
  const user = await findUserById(c.env.DB, userId);
  // The account was deleted after the link was made: the link is as good as unknown.
  if (!user) throw new GatewayError(ERR.LINK_INVALID);
  // A shared link is made by any session of the account: what it opens proves nobody (identity/proof.ts).
  return signedIn(c, user, { method: 'link', proves: kind !== 'share' });
}

/**
 * Sign-in links (rules in login-links/service.ts): the e-mail pass link of /pass_email_login and the shared
 * link of /share_login. Opening a link shows a page; the sign-in happens on the person's click, so mail
 * scanners that fetch links do not use them up.
 */
export const loginLinkRoutes = new Hono<LinkEnv>()
  // For an address with no account nothing is sent, but the answer, its time, the wait and the caps are the same.
  .post('/agg-web/user/passEmail/send', validate('json', passEmailSendRequest), async (c) => {
    const { loginEmail } = c.req.valid('json');
    const email = emailRecipient(loginEmail);
    const user = await findUserByIdentity(c.env.DB, { email });
    const link = await issueLink(c.env.DB, { kind: 'email_pass', userId: user?.id ?? null, subject: email, ip: clientIp(c), now: now(c) });
    const minutes = LINK_LIFETIME_MS.email_pass / 60_000;
    const message = passLinkMessage(requestLang(c), linkUrl(c, 'pass_email_login', LINK_PARAM.pass, link.token), minutes);
    // The e-mail goes after the answer (the same task, empty, for a decoy), so a known address does not answer
    // later than an unknown one. A failed e-mail withdraws its link there: the person may ask again at once.
    const send = async () => {
      if (!user) return;
      try {
        await deliver(c.env, { channel: 'email', to: email, ...message }, { now: now(c), traceId: traceIdOf(c) });
      } catch {
        // deliver logged the failure with the trace id.
        await withdrawLink(c.env.DB, link.token);
      }
    };
    c.executionCtx.waitUntil(afterTheAnswer().then(send));
    return ok(c, null);
  })
  .post('/agg-web/user/passEmail/login', validate('json', passEmailLoginRequest), async (c) => signInWithLink(c, 'email_pass', c.req.valid('json').pass))
  // A platform session shares its own account; a partner session has no platform account to share.
  // Handing the account to another device is a sensitive change: it needs a fresh proof like ending sessions.
  .post('/agg-web/user/shareLogin/create', requireSession, requireFreshProof, validate('json', shareLinkRequest), async (c) => {
    if (c.get('session').kind !== 'platform') throw new GatewayError(ERR.SESSION_ENDED);
    const link = await issueLink(c.env.DB, { kind: 'share', userId: c.get('user').id, subject: c.get('user').id, ip: clientIp(c), now: now(c) });
    const answer: ShareLinkAnswer = {
      url: linkUrl(c, 'share_login', LINK_PARAM.share, link.token),
      expiresIn: LINK_LIFETIME_MS.share / 1000,
    };
    return ok(c, answer);
  })
  .post('/agg-web/user/shareLogin/login', validate('json', shareLoginRequest), async (c) => signInWithLink(c, 'share', c.req.valid('json').share));
