import type { Context } from 'hono';
import { COMPANY_SSO_CALLBACK_PATH, type CompanySsoCallbackRequest, type CompanySsoLookupAnswer, type CompanySsoNeedsLink } from '../../../src/schemas/company-sso';
import { ERR } from '../../../src/schemas/error-codes';
import { configOf } from '../../config';
import { now, WECHAT_FLOW_HEADER } from '../../contract';
import { issueCode, consumeCode } from '../codes/service';
import { clientIp, GatewayError, ok, requestLang, traceIdOf } from '../errors';
import { isUniqueViolation } from '../identity/db/batch';
import { findUserById, findUserByIdentity, insertUserStatement, type UserRow } from '../identity/db/people';
import { newSecret, tokenHash } from '../identity/tokens';
import { signedIn, type SignInEnv } from '../sign-in/service';
import { openSecret } from '../webhooks/signing';
import { authorizationUrl, discover, flowSecrets, redeem } from './client';
import { sealingId } from './connections';
import {
  connectionById,
  connectionOfDomain,
  consumeSsoState,
  consumeSsoTicket,
  insertSsoState,
  insertSsoTicket,
  linkedUser,
  linkStatement,
  liveSsoTicket,
  newMemberStatements,
  routeOfDomain,
  ssoSignInStatement,
  type ConnectionRow,
  type SsoTicketRow,
} from './db';

/**
 * Signing in through a company's own OpenID provider (issue 43). Who gets in:
 * - The flow's `state` and its browser half (the HttpOnly flow cookie the edge keeps for WeChat flows too, sent as
 *   WECHAT_FLOW_HEADER) are spent together in ONE statement (SINGLE_USE.oauthState, method 'company-sso'): a
 *   forged, swapped (another browser's), replayed or expired state is ID0614, before the provider is asked anything.
 *   The PKCE verifier and the nonce are derived from the browser half, so the database holds neither.
 * - The ID token is verified (client.ts): issuer, audience = our client id, nonce, signature by the provider's JWKS;
 *   anything else is ID0615.
 * - The e-mail (the connection's claim, `email` by default) counts only with `email_verified: true` and only on a
 *   domain THIS company proved (company_domains): otherwise ID0616, whatever the provider says.
 * - A person already tied (company_sso_links: the provider's `iss` and `sub`) signs in. An existing account with
 *   that e-mail is tied only after its own proof once: a one-time code sent to that e-mail (`link`). A new person
 *   gets an account and a staff application in the company's approval queue (pending), or an active membership when
 *   the administrator admits people from the domain; the account, the tie, the membership, its event and the
 *   session are one batch, so 20 parallel first sign-ins of one person give one account (the e-mail's unique key
 *   decides; the losers sign in to the winner's account through its tie).
 * - Every session starts in sign-in/service.ts signedIn (method `company-sso`), so a blocked account, two-step and
 *   the login case apply as for any sign-in; an `amr` with `mfa` or `hwk` counts as the second step, and the session
 *   records the company so that its two-step rule counts this session (authority/db.ts; the person's other sessions do not). A provider's
 *   sign-in proves nobody for the portal's sensitive changes (`proves: false`, as WeChat's).
 */

export const FLOW_LIFETIME_MS = 10 * 60_000;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
const loopback = (env: object) => ({ loopbackHttp: configOf(env).devRoutes });

function callbackUrl(env: object): string {
  const origin = configOf(env).portalOrigin;
  if (!origin) throw new GatewayError(ERR.SERVER_ERROR);
  return `${origin}${COMPANY_SSO_CALLBACK_PATH}`;
}

/** /login's question: is this e-mail's domain signed in through a company? The answer depends on the domain only. */
export async function lookup(db: D1Database, email: string): Promise<CompanySsoLookupAnswer> {
  const connection = await connectionOfDomain(db, domainOf(email));
  return connection ? { company: { nameEn: connection.name_en, nameCn: connection.name_cn }, ssoOnly: connection.sso_only === 1 } : { company: null, ssoOnly: false };
}

/** Starts a flow: the provider's URL, and the browser's half for the edge's HttpOnly flow cookie. */
export async function start<E extends SignInEnv>(c: Context<E>, email: string) {
  const db = c.env.DB;
  const connection = await connectionOfDomain(db, domainOf(email));
  if (!connection) throw new GatewayError(ERR.SSO_NOT_CONNECTED);
  const server = await discover(connection.issuer, loopback(c.env));
  const [state, browser] = await Promise.all([newSecret(), newSecret()]);
  const at = now(c);
  await insertSsoState(db, { stateHash: state.hash, browserHash: browser.hash, connectionId: connection.id, network: clientIp(c), now: at, expiresAt: at + FLOW_LIFETIME_MS }, configOf(c.env).wechatStartCap);
  const { verifier, nonce } = await flowSecrets(browser.token);
  return {
    authorizeUrl: await authorizationUrl(server, connection.client_id, { state: state.token, verifier, nonce, redirectUri: callbackUrl(c.env), loginHint: email }),
    wechatFlow: { secret: browser.token, expiresIn: FLOW_LIFETIME_MS / 1000 },
  };
}

const flowSecretOf = (c: Context) => c.req.header(WECHAT_FLOW_HEADER) ?? '';

/** What the provider said of the person, once verified. */
interface Verified {
  connection: ConnectionRow;
  subject: string;
  email: string;
  name: string;
  multiFactor: boolean;
}

/** The callback: spends the state of this browser, redeems the code, then signs in, asks for the link, or applies. */
export async function callback<E extends SignInEnv>(c: Context<E>, request: CompanySsoCallbackRequest) {
  const db = c.env.DB;
  const at = now(c);
  const browser = flowSecretOf(c);
  if (!browser) throw new GatewayError(ERR.SSO_STATE_INVALID);
  const flow = await consumeSsoState(db, await tokenHash(request.state), await tokenHash(browser), at);
  if (!flow) throw new GatewayError(ERR.SSO_STATE_INVALID);
  const connection = await connectionById(db, flow.connection_id);
  if (!connection || connection.disabled_at !== null) throw new GatewayError(ERR.SSO_NOT_CONNECTED);
  const server = await discover(connection.issuer, loopback(c.env));
  const secret = await openSecret(c.env, sealingId(connection), connection.client_secret_sealed);
  const claims = await redeem(server, { issuer: connection.issuer, clientId: connection.client_id, clientSecret: secret }, request, { ...(await flowSecrets(browser)), redirectUri: callbackUrl(c.env) }, loopback(c.env));

  const claimed = claims[connection.email_claim];
  const email = typeof claimed === 'string' ? claimed.trim().toLowerCase() : '';
  if (claims.email_verified !== true || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new GatewayError(ERR.SSO_EMAIL_REFUSED);
  // WorkOS's rule: only a domain this company proved, whatever the provider asserts; and one that routes to this
  // connection (another of the company's providers does not vouch for a subsidiary's people).
  const route = await routeOfDomain(db, domainOf(email));
  if (!route || route.company_id !== connection.company_id || route.connection_id !== connection.id) throw new GatewayError(ERR.SSO_EMAIL_REFUSED);
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((v): v is string => typeof v === 'string') : [];
  const who: Verified = {
    connection,
    subject: `${server.issuer} ${claims.sub}`,
    email,
    name: typeof claims.name === 'string' ? claims.name.slice(0, 100) : '',
    multiFactor: amr.includes('mfa') || amr.includes('hwk'),
  };
  return signInAs(c, who, browser);
}

/**
 * The provider's second factor (`amr` with `mfa` or `hwk`): no second step here, and the session records the company,
 * whose two-step rule counts it for this session only (authority/db.ts twoStepMissing).
 */
const mfaOf = (who: Verified) => (who.multiFactor ? { multiFactor: true, providerMfaCompanyId: who.connection.company_id } : {});

async function signInAs<E extends SignInEnv>(c: Context<E>, who: Verified, browser: string) {
  const db = c.env.DB;
  const at = now(c);
  const companyId = who.connection.company_id;
  const tiedSignIn = (user: UserRow) =>
    signedIn(c, user, { method: 'company-sso', proves: false, ...mfaOf(who), before: [ssoSignInStatement(db, { companyId, connectionId: who.connection.id, userId: user.id, outcome: 'signed-in', at })] });
  const tied = await linkedUser(db, companyId, who.subject);
  const user = tied && (await findUserById(db, tied.user_id));
  if (user) return tiedSignIn(user);
  const existing = await findUserByIdentity(db, { email: who.email });
  if (existing) {
    // A parallel first sign-in of this person may have written the account and its tie in between (one batch).
    if ((await linkedUser(db, companyId, who.subject))?.user_id === existing.id) return tiedSignIn(existing);
    return ok(c, await askForLink(db, who, browser, at));
  }

  const userId = crypto.randomUUID();
  const active = who.connection.admit_domain === 1;
  try {
    return await signedIn(c, { id: userId, original_flag: 0, user_type: 2 }, {
      method: 'company-sso',
      newUser: true,
      proves: false,
      ...mfaOf(who),
      before: [
        insertUserStatement(db, { id: userId, email: who.email, realName: who.name, userType: 2, source: 'company-sso', now: at }),
        linkStatement(db, { companyId, subject: who.subject, userId, at }),
        ...newMemberStatements(db, { companyId, userId, name: who.name || who.email, email: who.email, active, at }),
        ssoSignInStatement(db, { companyId, connectionId: who.connection.id, userId, outcome: active ? 'admitted' : 'applied', at }),
      ],
      refusal: (error) => (isUniqueViolation(error) ? new GatewayError(ERR.ACCOUNT_JUST_REGISTERED) : null),
    });
  } catch (error) {
    // A parallel first sign-in of the same person wrote the account (the e-mail's unique key): sign in to it through its tie.
    if (!(error instanceof GatewayError && error.code === ERR.ACCOUNT_JUST_REGISTERED)) throw error;
    const winner = await linkedUser(db, companyId, who.subject);
    const account = winner && (await findUserById(db, winner.user_id));
    if (!account) throw error;
    return tiedSignIn(account);
  }
}

/** An existing account not yet tied: a ticket (single use, this browser) until its own proof. */
async function askForLink(db: D1Database, who: Verified, browser: string, at: number): Promise<CompanySsoNeedsLink & { wechatFlow: { secret: string; expiresIn: number } }> {
  const ticket = await newSecret();
  const row: SsoTicketRow = { subject: who.subject, nickname: who.name, company_id: who.connection.company_id, email: who.email, amr: who.multiFactor ? 'mfa' : '' };
  await insertSsoTicket(db, { ...row, ticketHash: ticket.hash, browserHash: await tokenHash(browser), now: at, expiresAt: at + FLOW_LIFETIME_MS });
  const company = await connectionOfDomain(db, domainOf(who.email));
  return {
    needsLink: true,
    email: who.email,
    companyNameEn: company?.name_en ?? '',
    companyNameCn: company?.name_cn ?? null,
    wechatFlow: { secret: ticket.token, expiresIn: FLOW_LIFETIME_MS / 1000 },
  };
}

async function ticketOf(c: Context) {
  const hash = await tokenHash(flowSecretOf(c) || 'none');
  const ticket = await liveSsoTicket(c.env.DB, hash, now(c));
  if (!ticket) throw new GatewayError(ERR.SSO_LINK_EXPIRED);
  return { hash, ticket };
}

/** Sends the account's own proof (a one-time code) to the e-mail of this browser's ticket. */
export async function sendLinkCode<E extends SignInEnv>(c: Context<E>) {
  const { ticket } = await ticketOf(c);
  await issueCode(c.env, { recipient: ticket.email, channel: 'email', purpose: 'login', ip: clientIp(c), now: now(c), lang: requestLang(c), traceId: traceIdOf(c) });
  return ok(c, null);
}

/** The account's own code ties it to the provider's person, and signs in; later sign-ins go straight in. */
export async function link<E extends SignInEnv>(c: Context<E>, code: string) {
  const db = c.env.DB;
  const at = now(c);
  const { hash, ticket } = await ticketOf(c);
  await consumeCode(db, { recipient: ticket.email, purpose: 'login', code, ip: clientIp(c), now: at });
  const spent = await consumeSsoTicket(db, hash, at);
  if (!spent) throw new GatewayError(ERR.SSO_LINK_EXPIRED);
  const user = await findUserByIdentity(db, { email: spent.email });
  // The domain still routes to a connection of the company (not removed meanwhile), still on and still the provider the
  // person came through (the subject is `<issuer> <sub>`): the tie is recorded under it.
  const route = await routeOfDomain(db, domainOf(spent.email));
  const connection = route?.connection_id ? await connectionById(db, route.connection_id) : null;
  const cameThrough = spent.subject.slice(0, spent.subject.indexOf(' ')).replace(/\/+$/, '');
  const throughIt = connection !== null && connection.disabled_at === null && cameThrough === connection.issuer.replace(/\/+$/, '');
  if (!user || route?.company_id !== spent.company_id || !connection || !throughIt) throw new GatewayError(ERR.SSO_LINK_EXPIRED);
  return signedIn(c, user, {
    method: 'company-sso',
    proves: false,
    // The tie is made on the account's own proof: a person with the portal's two-step gives their second step too,
    // whatever the provider's amr says (later sign-ins through the tie count it).
    multiFactor: false,
    before: [linkStatement(db, { companyId: spent.company_id, subject: spent.subject, userId: user.id, at }), ssoSignInStatement(db, { companyId: spent.company_id, connectionId: connection.id, userId: user.id, outcome: 'linked', at })],
  });
}
