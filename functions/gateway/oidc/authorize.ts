import { askerOf } from '../authority/db';
import { configOf } from '../../config';
import type { Lang } from '../../../src/lib/lang';
import { ERR } from '../../../src/schemas/error-codes';
import { ACR, OIDC_SCOPES, type ConnectRequestAnswer, type LoginHint, type OidcScope } from '../../../src/schemas/oidc';
import { emailRecipient, MAINLAND_CALLING_CODE, phoneFields, phoneRecipient, phoneRecipientFromE164 } from '../identity/sign-in-names';
import { runBatch } from '../identity/db/batch';
import { findUserById } from '../identity/db/people';
import { companyById } from '../companies/db';
import { standingIn } from '../authority/service';
import { GatewayError } from '../errors';
import { consumeStatement, SINGLE_USE } from '../identity/db/single-use';
import { newSecret, randomToken } from '../identity/tokens';
import { passkeysOfUser } from '../passkeys/db';
import { twoStepEnabled } from '../second-step/db';
import { findSession, idleTimeoutMs } from '../sessions/service';
import { type SessionRow } from '../identity/db/sessions';
import { claimRequest, releaseRequestStatement, clientById, waitingRequestParams, consentOf, insertCodeStatement, insertGrantStatement, insertRequest, rememberConsentStatement, type ClientRow, type RequestRow } from './db';
import { issuerOf, parseList, pkceRequired, type OAuthErrorCode } from './clients';
import { authenticationOf, verifiedIdTokenHint } from './tokens';

/**
 * The authorization endpoint (OIDC Core §3.1.2, OAuth 2.1): the code flow with PKCE only. A request is checked
 * against its registered client first: an unknown client or a redirect_uri that is not registered exactly gets
 * the portal's error page and never a redirect (RFC 9700 §4.1). Everything after that answers the client at its
 * redirect_uri with `state` and `iss` (RFC 9207). A request that needs the person (sign-in, a fresh proof,
 * consent) waits in oidc_requests for /connect?request=ID, which the edge sends signed-out visitors to sign in
 * for first.
 */

export const CODE_TTL_MS = 60_000;
const REQUEST_TTL_MS = 10 * 60_000;

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  scope: OidcScope[];
  state: string | null;
  nonce: string | null;
  code_challenge: string;
  prompt: ('none' | 'login' | 'consent')[];
  max_age: number | null;
  login_hint: string | null;
  acr_values: string[];
}

export type AuthorizeOutcome =
  | { kind: 'error-page'; reason: 'client' | 'redirect_uri' }
  | { kind: 'redirect'; to: string; lang?: Lang };

/** The registered URI with the answer's parameters appended (its own query kept); built from the stored string, never from request input. */
export function answerAt(registered: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(registered);
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

const oauthError = (env: object, uri: string, state: string | null, error: OAuthErrorCode, description: string): AuthorizeOutcome => ({
  kind: 'redirect',
  to: answerAt(uri, { error, error_description: description, state, iss: issuerOf(env) }),
});

const one = (query: URLSearchParams, name: string): string | null => {
  const values = query.getAll(name);
  return values.length === 1 ? values[0]! : null;
};

/** ui_locales: the first of zh / en named (zh-CN, en-US count), else none. */
function pageLang(uiLocales: string | null): Lang | undefined {
  for (const tag of (uiLocales ?? '').split(' ')) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'zh' || base === 'en') return base;
  }
  return undefined;
}

/** The first step: validate against the client, then answer at once, or park the request for the person. */
export async function beginAuthorization(env: { DB: D1Database }, query: URLSearchParams, sessionToken: string | null, at: number, visitorLang: Lang): Promise<AuthorizeOutcome> {
  const clientId = one(query, 'client_id');
  const client = clientId ? await clientById(env.DB, clientId) : null;
  if (!client || client.disabled_at !== null) return { kind: 'error-page', reason: 'client' };
  const redirectUri = one(query, 'redirect_uri');
  // Exact string match against the registered list; a client with one URI may leave it out (OAuth 2.1 §4.1.1).
  const registered = parseList(client.redirect_uris);
  const uri = redirectUri === null && query.getAll('redirect_uri').length === 0 && registered.length === 1 ? registered[0]! : registered.find((candidate) => candidate === redirectUri);
  if (!uri) return { kind: 'error-page', reason: 'redirect_uri' };

  const state = one(query, 'state');
  const fail = (error: OAuthErrorCode, description: string) => oauthError(env, uri, state, error, description);
  for (const name of ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'prompt', 'max_age']) {
    if (query.getAll(name).length > 1) return fail('invalid_request', `${name} is repeated`);
  }
  if (query.has('request') || query.has('request_uri')) return fail(query.has('request') ? 'request_not_supported' : 'request_uri_not_supported', 'request objects are not supported');
  const responseType = one(query, 'response_type');
  if (responseType !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported (no implicit or hybrid flow)');
  const responseMode = one(query, 'response_mode');
  if (responseMode !== null && responseMode !== 'query') return fail('invalid_request', 'only response_mode=query is supported');
  if (!parseList(client.grant_types).includes('authorization_code')) return fail('unauthorized_client', 'this client may not use the authorization code flow');

  const challenge = one(query, 'code_challenge');
  const method = one(query, 'code_challenge_method');
  // PKCE per client (migration 0430): S256 whenever a challenge is sent; none only where an operator turned it off.
  if (challenge !== null || method !== null || pkceRequired(client)) {
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail('invalid_request', 'code_challenge (PKCE, S256) is required');
    if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  }

  const allowed = parseList(client.scopes);
  // Scopes the portal does not know or the client may not have are left out (OIDC Core §3.1.2.1: ignored).
  const requested = (one(query, 'scope') ?? '').split(' ').filter((scope) => (OIDC_SCOPES as readonly string[]).includes(scope) && allowed.includes(scope));
  if (!requested.includes('openid')) return fail('invalid_scope', 'the openid scope is required');

  const prompt = (one(query, 'prompt') ?? '').split(' ').filter(Boolean);
  if (prompt.some((value) => !['none', 'login', 'consent'].includes(value))) return fail('invalid_request', 'prompt may be none, login or consent');
  if (prompt.includes('none') && prompt.length > 1) return fail('invalid_request', 'prompt=none stands alone');
  const maxAgeText = one(query, 'max_age');
  if (maxAgeText !== null && !/^\d{1,9}$/.test(maxAgeText)) return fail('invalid_request', 'max_age must be a whole number of seconds');
  const nonce = one(query, 'nonce');
  const loginHint = one(query, 'login_hint');
  if ((nonce?.length ?? 0) > 256 || (state?.length ?? 0) > 1024 || (loginHint?.length ?? 0) > 256) return fail('invalid_request', 'a parameter is too long');

  const params: AuthorizeParams = {
    client_id: client.id,
    redirect_uri: uri,
    scope: [...new Set(requested)] as OidcScope[],
    state,
    nonce,
    code_challenge: challenge ?? '',
    prompt: prompt as AuthorizeParams['prompt'],
    max_age: maxAgeText === null ? null : Number(maxAgeText),
    login_hint: loginHint,
    acr_values: (one(query, 'acr_values') ?? '').split(' ').filter(Boolean),
  };
  const lang = pageLang(one(query, 'ui_locales'));
  const session = sessionToken ? await findSession(env.DB, sessionToken, at, idleTimeoutMs(env)) : null;
  const requestRow = { id: randomToken(), client_id: client.id, params: JSON.stringify(params), created_at: at, expires_at: at + REQUEST_TTL_MS };

  if (!session || session.kind !== 'platform') {
    if (params.prompt.includes('none')) return fail('login_required', 'the person is not signed in');
    await insertRequest(env.DB, requestRow);
    return { kind: 'redirect', to: connectPath(requestRow.id), lang };
  }
  // id_token_hint (OIDC Core §3.1.2.1): a hint of another person than the signed-in one cannot be answered silently.
  const hint = one(query, 'id_token_hint');
  if (hint !== null && params.prompt.includes('none')) {
    const hinted = await verifiedIdTokenHint(env.DB, hint, at, issuerOf(env));
    if (!hinted || hinted.sub !== session.user_id) return fail('login_required', 'the id_token_hint names someone who is not signed in');
  }
  const needs = await needsOf(env, client, params, session, requestRow.created_at, at);
  if (needs.needs === 'ready') return issueCode(env, client, params, session, at, lang ?? visitorLang);
  if (params.prompt.includes('none')) {
    return fail(needs.needs === 'consent' ? 'consent_required' : needs.needs === 'proof' ? 'login_required' : 'interaction_required', 'the person must act first');
  }
  await insertRequest(env.DB, requestRow);
  return { kind: 'redirect', to: connectPath(requestRow.id), lang };
}

/** The consent page of a parked request (a login_hint stays in the request: an address in a URL ends up in logs). */
const connectPath = (id: string) => `/connect?${new URLSearchParams({ request: id })}`;

/**
 * GET /oidc/v1/hints/:id — the `login_hint` of a request that waits for a sign-in, as the sign-in form's fields, so
 * /login (opened with `next=/connect?request=ID`) can fill them without the address ever being in a URL. Only
 * while no session has opened the request (until the sign-in, at most 10 minutes); a hint that is not a phone
 * number or an e-mail address the portal accepts is no hint (OIDC Core §3.1.2.1 leaves its format to the OP).
 */
export async function loginHintOf(env: { DB: D1Database }, id: string, at: number): Promise<LoginHint> {
  const row = await waitingRequestParams(env.DB, id, at);
  const hint = row ? (JSON.parse(row.params) as AuthorizeParams).login_hint : null;
  return hint ? hintFields(hint) : null;
}

function hintFields(hint: string): LoginHint {
  const text = hint.trim();
  try {
    if (text.includes('@')) return { channel: 'email', email: emailRecipient(text) };
    // '+44 7700 900123' in any region; a number without a calling code is a mainland one (the form's default).
    const fields = phoneFields(text.startsWith('+') ? phoneRecipientFromE164(text) : phoneRecipient(MAINLAND_CALLING_CODE, text));
    return fields ? { channel: 'phone', ...fields } : null;
  } catch {
    return null;
  }
}

/** When the session last proved its person, and with what. */
export function sessionAuthentication(session: Pick<SessionRow, 'proved_at' | 'proved_with' | 'created_at' | 'signed_in_with'>) {
  return session.proved_at !== null
    ? authenticationOf(session.proved_with, session.proved_at)
    : authenticationOf(session.signed_in_with === 'handoff' ? null : session.signed_in_with, session.signed_in_with === 'handoff' ? null : session.created_at);
}

/** What the person still has to do for this request, decided now. */
async function needsOf(
  env: { DB: D1Database },
  client: ClientRow,
  params: AuthorizeParams,
  session: SessionRow,
  requestedAt: number,
  at: number,
): Promise<{ needs: ConnectRequestAnswer['needs']; twoFactors: boolean }> {
  const auth = sessionAuthentication(session);
  const twoFactors = params.acr_values.includes(ACR.twoFactors);
  const fresh =
    auth.authTime !== null &&
    (!params.prompt.includes('login') || auth.authTime >= requestedAt) &&
    (params.max_age === null || auth.authTime >= at - params.max_age * 1000 || auth.authTime >= requestedAt);
  const strongEnough = !twoFactors || auth.acr === ACR.twoFactors;
  if (!fresh || !strongEnough) {
    if (!strongEnough && !(await twoStepEnabled(env.DB, session.user_id)) && (await passkeysOfUser(env.DB, session.user_id)).length === 0) {
      return { needs: 'two-step-setup', twoFactors };
    }
    return { needs: 'proof', twoFactors };
  }
  if (client.trusted === 1 && !params.prompt.includes('consent')) return { needs: 'ready', twoFactors };
  if (params.prompt.includes('consent')) return { needs: 'consent', twoFactors };
  const remembered = (await consentOf(env.DB, session.user_id, client.id))?.scope.split(' ') ?? [];
  return { needs: params.scope.every((scope) => remembered.includes(scope)) ? 'ready' : 'consent', twoFactors };
}

/** A code for the client at its redirect_uri: a new grant bound to this session, and the code bound to client, URI and PKCE challenge. */
async function issueCode(env: { DB: D1Database }, client: ClientRow, params: AuthorizeParams, session: SessionRow, at: number, locale: Lang, before: D1PreparedStatement[] = []): Promise<AuthorizeOutcome> {
  const { token: code, hash } = await newSecret();
  const grantId = randomToken();
  const auth = sessionAuthentication(session);
  await runBatch(env.DB, [
    ...before,
    insertGrantStatement(env.DB, {
      id: grantId,
      client_id: client.id,
      user_id: session.user_id,
      session_hash: session.token_hash,
      sid: session.public_id,
      scope: params.scope.join(' '),
      auth_time: auth.authTime,
      amr: auth.amr.join(' '),
      acr: auth.acr,
      locale,
      created_at: at,
    }),
    insertCodeStatement(env.DB, {
      code_hash: hash,
      grant_id: grantId,
      client_id: client.id,
      redirect_uri: params.redirect_uri,
      code_challenge: params.code_challenge,
      nonce: params.nonce,
      created_at: at,
      expires_at: at + CODE_TTL_MS,
    }),
  ]);
  return { kind: 'redirect', to: answerAt(params.redirect_uri, { code, state: params.state, iss: issuerOf(env) }) };
}

/** A parked request as this session sees it (claimed by it on first sight); OI0001 when gone or another session's. */
async function openRequest(env: { DB: D1Database }, id: string, session: SessionRow, at: number): Promise<{ request: RequestRow; params: AuthorizeParams; client: ClientRow }> {
  // Only a platform session decides (a partner session on the navigator host is not one of the issuer's).
  const request = session.kind === 'platform' ? await claimRequest(env.DB, id, session.token_hash, at) : null;
  const client = request ? await clientById(env.DB, request.client_id) : null;
  if (!request || !client || client.disabled_at !== null) throw new GatewayError(ERR.OIDC_REQUEST_GONE);
  return { request, params: JSON.parse(request.params) as AuthorizeParams, client };
}

/**
 * GET /oidc/v1/requests/:id — what the consent page shows (issue 47): the account that would sign in (its name and
 * the e-mail or phone it signs in with), the company the `company` scope would name (the session's, only while the
 * person acts in it, as token.ts `companyClaim` decides), whose app it is (a company's, or the platform's own), the
 * address it answers at, and only the scopes that give the app something: no phone number for an account without one.
 */
export async function requestView(env: { DB: D1Database }, id: string, session: SessionRow, at: number, lang: Lang = 'en'): Promise<ConnectRequestAnswer> {
  const { request, params, client } = await openRequest(env, id, session, at);
  const { needs, twoFactors } = await needsOf(env, client, params, session, request.created_at, at);
  const user = await findUserById(env.DB, session.user_id);
  const nameOf = (company: { name_en: string; name_cn: string | null }) => (lang === 'zh' ? company.name_cn || company.name_en : company.name_en || company.name_cn || '');
  const current = session.current_company_id && params.scope.includes('company') && (await standingIn(env.DB, session.current_company_id, askerOf(session))).inside
    ? await companyById(env.DB, session.current_company_id)
    : null;
  const ownerId = client.company_id ?? null;
  const owner = ownerId ? await companyById(env.DB, ownerId) : null;
  const applies = (scope: OidcScope) => (scope === 'phone' ? Boolean(user?.phone_e164) : scope === 'email' ? Boolean(user?.email) : scope === 'company' ? current !== null : true);
  return {
    client: { id: client.id, name: client.name, address: new URL(params.redirect_uri).host, owner: owner ? nameOf(owner) : null },
    account: { name: user?.real_name || null, signIn: user?.email ?? user?.phone_e164 ?? user?.login_name ?? '' },
    company: current ? nameOf(current) : null,
    scopes: params.scope.filter(applies),
    needs,
    twoFactors,
  };
}

/**
 * POST /oidc/v1/requests/:id/release — "Not you? Use another account": the session lets go of the request it
 * opened, so that the account signed in next may open it (claimRequest); the page then signs this one out.
 */
export async function releaseRequest(env: { DB: D1Database }, id: string, session: SessionRow, at: number): Promise<null> {
  await openRequest(env, id, session, at);
  await releaseRequestStatement(env.DB, id, session.token_hash).run();
  return null;
}

/**
 * POST /oidc/v1/requests/:id/decision — the person's answer. Spends the request (single use: of two clicks one
 * wins, the other gets OI0001); "allow" remembers the consent and answers a code, "deny" answers access_denied.
 */
export async function decide(env: { DB: D1Database }, id: string, session: SessionRow, allow: boolean, at: number, lang: Lang): Promise<{ redirectTo: string }> {
  const { request, params, client } = await openRequest(env, id, session, at);
  if (allow) {
    const { needs } = await needsOf(env, client, params, session, request.created_at, at);
    if (needs === 'proof') throw new GatewayError(ERR.OIDC_PROOF_REQUIRED);
    if (needs === 'two-step-setup') throw new GatewayError(ERR.OIDC_TWO_STEP_REQUIRED);
  }
  const spend = consumeStatement(env.DB, SINGLE_USE.oidcRequest, { id, session_hash: session.token_hash }, at, { returning: 'id' });
  if (!allow) {
    if (!(await spend.first())) throw new GatewayError(ERR.OIDC_REQUEST_GONE);
    const denied = oauthError(env, params.redirect_uri, params.state, 'access_denied', 'the person declined');
    return { redirectTo: denied.kind === 'redirect' ? denied.to : '/' };
  }
  // Spent before the code is made: of two clicks only one gets past here.
  const spent = await spend.first();
  if (!spent) throw new GatewayError(ERR.OIDC_REQUEST_GONE);
  const remember = client.trusted === 1 ? [] : [rememberConsentStatement(env.DB, session.user_id, client.id, mergedScopes((await consentOf(env.DB, session.user_id, client.id))?.scope, params.scope), at)];
  const outcome = await issueCode(env, client, params, session, at, lang, remember);
  return { redirectTo: outcome.kind === 'redirect' ? outcome.to : '/' };
}

const mergedScopes = (before: string | undefined, now: readonly string[]) => [...new Set([...(before?.split(' ').filter(Boolean) ?? []), ...now])].join(' ');

/** The refresh token's end: the session's absolute end (security baseline: refresh ≤ the session's lifetime). */
export const refreshLifetimeMs = (env: object) => configOf(env).sessionAbsoluteTimeout * 1000;
