import type { Context } from 'hono';
import type { Config } from '../../config';
import { now, WECHAT_FLOW_HEADER } from '../../contract';
import type { WorkerEnv } from '../../env';
import type { Lang } from '../../../src/lib/lang';
import type { WechatBindPhoneRequest, WechatCallbackAnswer, WechatMethod } from '../../../src/schemas/wechat';
import { ERR } from '../../../src/schemas/error-codes';
import { findUserById, findUserByIdentity, identityKey, insertUserStatement } from '../identity/db/people';
import { runBatch } from '../identity/db/batch';
import { auditStatement } from '../audit/db';
import { sendSecurityNotice, socialBoundChange } from '../delivery/security-notice';
import { consumeCode } from '../codes/service';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { newSecret, tokenHash } from '../identity/tokens';
import { identity } from '../identity/sign-in-names';
import { defaultConsentDocs } from '../legal/consents';
import { clientInfo } from '../sessions/devices';
import { recordFailedSignIn } from '../sign-in/history';
import { CODE_REFUSALS, signedIn, type SignInEnv } from '../sign-in/service';
import { bindingRefusal, bindingStatements, bindingsOfUser, findBinding, findBindingByMpOpenid, rememberMpOpenid, unbindStatement, type Provider } from '../social/db';
import { consumeState, consumeTicket, firstUseOfCode, insertState, insertTicket, liveTicket, type Purpose } from './db';
import { appOf, authorizeUrl, identify, providerOf, type WechatIdentity } from './provider';

/**
 * Sign in with WeChat and WeCom, tied to the phone account (issue 29). Every session, single-use secret and
 * proof goes through the identity core; every sign-in ends in sign-in/service.ts `signedIn`, so two-step (the
 * person's own, or their company's) and the login case apply exactly as for a password or a code.
 *
 * - A flow starts with a `state` (in WeChat's URL) and the browser's half (in the HttpOnly WeChat cookie); the
 *   callback spends both in ONE statement (SINGLE_USE.oauthState), within FLOW_LIFETIME_MS: a forged, replayed,
 *   expired or swapped callback (another browser's state) is WX0002. Of 20 parallel callbacks one signs in.
 * - Each authorization code is recorded before it is sent to WeChat (WX0003 the second time), whatever WeChat says.
 * - The subject is WeChat's unionid (the same person in the website app and the Official Account) or WeCom's
 *   "corpid:userid". A subject the portal does not know gets a binding ticket (single use, FLOW_LIFETIME_MS, in
 *   the same cookie): only that phone's sign-in code binds it, so nobody ties a WeChat to another's phone.
 *   A new phone registers (the agreement ticked), and the login case decides where the person goes.
 * - Inside WeChat the silent snsapi_base comes first: an Official Account openid already bound signs in; an
 *   unknown one asks again with snsapi_userinfo (`next: 'profile'`), which gives the unionid.
 * - A scan proves nobody (security baseline: only a password, a one-time code or a passkey do): its session
 *   starts unproved (`proves: false`, as a shared link's), so a stolen WeChat cannot change security settings.
 *   The phone-code binding spends a code, so that sign-in is a proof as a code sign-in is.
 * - Binding from the user center and unbinding need a fresh proof (identity/proof.ts); an unbinding keeps
 *   another way in (unbindStatement decides it in the same statement).
 */

export const FLOW_LIFETIME_MS = 10 * 60_000;

/**
 * Which methods are on, whether the WeChat button shows (Chinese pages and .cn hosts, or everywhere), and the
 * /login where a flow starts: always on PORTAL_ORIGIN (from configuration, never from the request), the one
 * callback domain WeChat allows, where the host-only WeChat cookie then comes back. A page on another host
 * (SITE_CN) sends the person there first.
 */
export function methodsOf(config: Config, lang: Lang) {
  return {
    qr: appOf(config, 'qr') !== null,
    mp: appOf(config, 'mp') !== null,
    wecom: appOf(config, 'wecom') !== null,
    shown: config.wechatEverywhere || lang === 'zh',
    startAt: config.portalOrigin ? `${config.portalOrigin}/login` : null,
  };
}

/** /wechat_callback on the configured portal origin: never built from the request's Host. */
function callbackUrl(config: Config): string {
  if (!config.portalOrigin) throw new GatewayError(ERR.SERVER_ERROR);
  return `${config.portalOrigin}/wechat_callback`;
}

/** Starts a flow: the URL the browser goes to, and the browser's secret for the edge's HttpOnly cookie. */
export async function startFlow<E extends SignInEnv>(c: Context<E>, method: WechatMethod, purpose: Purpose, userId: string | null, profile = false) {
  const config = c.get('config');
  const app = appOf(config, method);
  if (!app) throw new GatewayError(ERR.WECHAT_METHOD_OFF);
  const [state, browser] = await Promise.all([newSecret(), newSecret()]);
  const at = now(c);
  await insertState(c.env.DB, { stateHash: state.hash, browserHash: browser.hash, method, purpose, userId, network: clientIp(c), now: at, expiresAt: at + FLOW_LIFETIME_MS }, config.wechatStartCap);
  const scope = method === 'qr' ? 'snsapi_login' : profile ? 'snsapi_userinfo' : 'snsapi_base';
  return {
    authorizeUrl: authorizeUrl(config, method, app, { state: state.token, redirectUri: callbackUrl(config), scope }),
    wechatFlow: { secret: browser.token, expiresIn: FLOW_LIFETIME_MS / 1000 },
  };
}

const flowSecretOf = (c: Context) => c.req.header(WECHAT_FLOW_HEADER) ?? '';

/** WX0007 when the subject is someone else's, WX0008 when the account already has another of this provider. */
async function assertBindable(db: D1Database, userId: string, provider: Provider, subject: string): Promise<void> {
  const taken = await findBinding(db, provider, subject);
  if (taken && taken.user_id !== userId) throw new GatewayError(ERR.WECHAT_BOUND_ELSEWHERE);
  if ((await bindingsOfUser(db, userId)).some((b) => b.provider === provider && b.subject !== subject)) throw new GatewayError(ERR.WECHAT_ACCOUNT_HAS_ONE);
}

/** The callback: spends the state of this browser, then the code, then signs in, binds, or hands out a ticket. */
export async function takeCallback<E extends SignInEnv>(c: Context<E>, code: string, state: string) {
  const db = c.env.DB;
  const at = now(c);
  const browser = flowSecretOf(c);
  if (!browser) throw new GatewayError(ERR.WECHAT_STATE_INVALID);
  const flow = await consumeState(db, await tokenHash(state), await tokenHash(browser), at);
  if (!flow) throw new GatewayError(ERR.WECHAT_STATE_INVALID);
  if (!(await firstUseOfCode(db, await tokenHash(code), at))) throw new GatewayError(ERR.WECHAT_CODE_USED);
  const app = appOf(c.get('config'), flow.method);
  if (!app) throw new GatewayError(ERR.WECHAT_METHOD_OFF);
  const who = await identify(c.env, c.get('config'), flow.method, app, code, at);
  const purpose = flow.purpose;

  if (who.subject === null) {
    // snsapi_base inside WeChat: a known Official Account openid signs in; anyone else is asked for the profile.
    const known = who.openid && purpose === 'sign-in' ? await findBindingByMpOpenid(db, who.openid) : null;
    const user = known && (await findUserById(db, known.user_id));
    if (user) return signedIn(c, user, { method: 'wechat', proves: false });
    return ok(c, { next: 'profile', purpose } satisfies WechatCallbackAnswer);
  }

  if (purpose === 'bind') {
    const userId = flow.user_id!;
    await assertBindable(db, userId, who.provider, who.subject);
    // The read above answers the usual case early; a parallel binding can still overtake it, so the INSERT's keys
    // decide (bindingRefusal): of two scans racing for one WeChat or one account, the loser hears WX0007 / WX0008.
    try {
      await runBatch(db, bindingStatements(db, userId, { provider: who.provider, subject: who.subject, nickname: who.nickname, mp_openid: who.openid }, at, clientIp(c)), bindingRefusal);
      await sendSecurityNotice(c.env, { userId, at, change: socialBoundChange(who.provider), lang: requestLang(c) });
    } catch (error) {
      // This WeChat tied to this very account already (scanned again, or twice at once): bound, as asked.
      const mine = error instanceof GatewayError && error.code === ERR.WECHAT_BOUND_ELSEWHERE && (await findBinding(db, who.provider, who.subject))?.user_id === userId;
      if (!mine) throw error;
    }
    return ok(c, { bound: who.provider, nickname: who.nickname, purpose } satisfies WechatCallbackAnswer);
  }

  const binding = await findBinding(db, who.provider, who.subject);
  const user = binding && (await findUserById(db, binding.user_id));
  if (user) {
    if (who.openid) await rememberMpOpenid(db, user.id, who.openid);
    return signedIn(c, user, { method: who.provider, proves: false });
  }
  return ok(c, { needsPhone: true, provider: who.provider, nickname: who.nickname, purpose, wechatFlow: await issueTicket(db, who, browser, at) });
}

async function issueTicket(db: D1Database, who: WechatIdentity, browser: string, at: number) {
  const ticket = await newSecret();
  await insertTicket(db, {
    ticketHash: ticket.hash,
    browserHash: await tokenHash(browser),
    provider: who.provider,
    subject: who.subject!,
    nickname: who.nickname,
    mp_openid: who.openid,
    now: at,
    expiresAt: at + FLOW_LIFETIME_MS,
  });
  return { secret: ticket.token, expiresIn: FLOW_LIFETIME_MS / 1000 };
}

/**
 * The phone and its sign-in code tie the WeChat (or WeCom) of this browser's ticket to that phone's account, or
 * register a new one, and sign in. Checked before the code is used (so the person can fix the form and keep the
 * code): the ticket is live and the WeChat is nobody's yet. Then the code (a wrong one
 * counts as consumeCode counts it, and goes into a known account's history), then whether the account has
 * another WeChat (WX0008: told only to the phone's holder), then the ticket (single use), then
 * one batch: the new user, the binding, the session (a parallel binding of the same WeChat fails it whole).
 */
export async function bindPhone<E extends SignInEnv>(c: Context<E>, body: WechatBindPhoneRequest) {
  const db = c.env.DB;
  const at = now(c);
  const ticketHash = await tokenHash(flowSecretOf(c) || 'none');
  const ticket = await liveTicket(db, ticketHash, at);
  if (!ticket) throw new GatewayError(ERR.WECHAT_TICKET_EXPIRED);
  const name = identity({ loginType: 1, mobileCode: body.mobileCode, mobile: body.mobile });
  const existing = await findUserByIdentity(db, name);
  // Only what does not depend on the phone is told before its code is spent (the WeChat is bound already).
  if (await findBinding(db, ticket.provider, ticket.subject)) throw new GatewayError(ERR.WECHAT_BOUND_ELSEWHERE);
  try {
    await consumeCode(db, { recipient: identityKey(name), purpose: 'login', code: body.code, ip: clientIp(c), now: at });
  } catch (error) {
    if (existing && error instanceof GatewayError && CODE_REFUSALS.has(error.code)) {
      await recordFailedSignIn(db, { userId: existing.id, at, method: ticket.provider, partner: false, client: clientInfo(c) });
    }
    throw error;
  }
  // After the code: WX0008 says this phone's account has a WeChat, which only that phone's holder may learn
  // (else one ticket would test any number of phones for 10 minutes).
  if (existing) await assertBindable(db, existing.id, ticket.provider, ticket.subject);
  const claimed = await consumeTicket(db, ticketHash, at);
  if (!claimed) throw new GatewayError(ERR.WECHAT_TICKET_EXPIRED);
  // The binding goes with the session (signedIn): when a second step is owed it waits in the challenge and is
  // written only when that step is passed, so a phone code alone never ties a WeChat to a two-step account.
  if (existing) return signedIn(c, existing, { method: claimed.provider, binding: claimed, agreedTo: defaultConsentDocs });
  const userId = crypto.randomUUID();
  const newUser = insertUserStatement(db, { id: userId, phone: 'phone' in name ? name.phone : null, source: 'wechat', now: at });
  return signedIn(c, { id: userId, original_flag: 0, user_type: 0 }, { method: claimed.provider, newUser: true, before: [newUser], binding: claimed, agreedTo: [...defaultConsentDocs, 'registration'] });
}

/** The user center's list. */
export async function bindingsOf(db: D1Database, userId: string) {
  return (await bindingsOfUser(db, userId)).map((b) => ({ provider: b.provider, nickname: b.nickname, createdAt: b.created_at }));
}

/** Unbinds (after a fresh proof, checked by the route): WX0011 when none, WX0010 when it is the last way in. */
export async function unbind(env: WorkerEnv, userId: string, provider: Provider, at: number, network: string | null): Promise<void> {
  const db = env.DB;
  if (!(await bindingsOfUser(db, userId)).some((b) => b.provider === provider)) throw new GatewayError(ERR.WECHAT_NOT_BOUND);
  const [removed] = await runBatch(db, [
    unbindStatement(db, userId, provider),
    auditStatement(db, { at, actor: { kind: 'user', id: userId }, action: 'user.social_unbound', target: { kind: 'user', id: userId }, network, detail: { provider } }, { ifChanged: true }),
  ]);
  if (!removed?.results?.length) throw new GatewayError(ERR.WECHAT_LAST_WAY_IN);
}

export { providerOf };
