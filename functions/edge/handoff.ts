import type { Context, MiddlewareHandler } from 'hono';
import { csrf } from 'hono/csrf';
import { html } from 'hono/html';
import { z } from 'zod';
import { workerMessagesFor } from '../../src/i18n/worker';
import type { Lang } from '../../src/lib/lang';
import type { EdgeBindings, WorkerEnv } from '../env';
import { findUserById, runBatch, type LoginIdentity } from '../gateway/db/users';
import { GatewayError } from '../gateway/errors';
import { emailRecipient, phoneRecipientFromE164 } from '../gateway/services/identity';
import { isCommonPassword, verifyPassword } from '../gateway/services/passwords';
import { now } from '../gateway/services/clock';
import { clientInfoOf, type ClientInfo } from '../gateway/services/devices';
import { findSession, idleTimeoutMs } from '../gateway/services/sessions';
import { checkPassword, startSession } from '../gateway/services/sign-in';
import { CHALLENGE_LIFETIME_MS, prepareChallenge } from '../gateway/services/two-step';
import { twoStepEnabled } from '../gateway/db/two-step';
import { configOf } from '../config';
import { RETURN_PARAM } from '../../src/lib/routes';
import { handoffKeys } from './handoff-keys';
import { openHandoffBlob, type HandoffClaims, type HandoffPurpose, type HandoffRefusal } from './handoff-blob';
import { isNavigatorHost, visitorLang } from './lang';
import { buildRedirect, safeRedirect } from './redirect-target';
import { clientNetwork } from './client-ip';
import { clientCountry } from './client-country';
import { secondStepCookie, sessionTokenOf, setSecondStepCookie, setSessionCookies, tokenCookie } from './session-cookies';

export {
  createHandoffBlob,
  handoffClaims,
  importHandoffKey,
  openHandoffBlob,
  DEV_HANDOFF_KEY,
  type HandoffClaims,
  type HandoffKey,
  type HandoffPurpose,
} from './handoff-blob';

/** Query parameters that carry hand-off blobs, and what each one is for. */
export const handoffParams = { token: 'session', userToken: 'session', userNameAndPwd: 'credentials' } as const satisfies Record<
  string,
  HandoffPurpose
>;
type HandoffParam = keyof typeof handoffParams;
const paramNames = Object.keys(handoffParams) as HandoffParam[];

/**
 * 'credentials': a `userNameAndPwd` blob was genuine, but its name and password do not sign anyone in here.
 * 'blocked': the account it names was blocked by the platform's support.
 */
export type HandoffFailure = HandoffRefusal | 'replayed' | 'credentials' | 'blocked';
export type ConsumedHandoff = { ok: true; claims: HandoffClaims } | { ok: false; reason: HandoffFailure };

/** Rows stay this long after their blob expired, so clock skew never lets a pruned jti be used again. */
const PRUNE_MARGIN_S = 300;

/**
 * Records a blob's jti; false when it was recorded before (a replay). One INSERT against the primary key, so
 * of any number of parallel uses exactly one wins. Long-expired rows are pruned in the same batch.
 */
export async function recordHandoffJti(db: D1Database, claims: HandoffClaims, nowMs: number): Promise<boolean> {
  const now = Math.floor(nowMs / 1000);
  const [, insert] = await db.batch([
    db.prepare('DELETE FROM handoff_jtis WHERE expires_at < ?').bind(now - PRUNE_MARGIN_S),
    db
      .prepare('INSERT INTO handoff_jtis (jti, purpose, expires_at, used_at) VALUES (?, ?, ?, ?) ON CONFLICT (jti) DO NOTHING')
      .bind(claims.jti, claims.purpose, claims.exp, now),
  ]);
  return insert?.meta.changes === 1;
}

/** Verifies and decrypts one blob meant for this site (HANDOFF_AUDIENCE) and `purpose`, without using it up. */
async function openHandoff(env: WorkerEnv, blob: string, purpose: HandoffPurpose, at: number) {
  // The keys' form (base64 of 32 bytes) is checked when the configuration is parsed.
  const config = configOf(env);
  const keys = await handoffKeys(config);
  return openHandoffBlob(blob, { keys, audience: config.handoffAudience, purpose, now: at });
}

/** Verifies, decrypts and consumes one blob meant for this site (HANDOFF_AUDIENCE) and `purpose`. */
export async function consumeHandoff(env: WorkerEnv, blob: string, purpose: HandoffPurpose, at: number): Promise<ConsumedHandoff> {
  const opened = await openHandoff(env, blob, purpose, at);
  if (!opened.ok) return opened;
  if (!(await recordHandoffJti(env.DB, opened.claims, at))) return { ok: false, reason: 'replayed' };
  return opened;
}

/**
 * Verifies and consumes a `userNameAndPwd` blob and returns its `loginName` and `passwordHash` (the
 * client-side SHA-256 hex the browser sends as a password). The caller uses them for exactly one sign-in and must never store or
 * log them.
 */
export async function consumeCredentialsHandoff(env: WorkerEnv, blob: string, at: number) {
  const consumed = await consumeHandoff(env, blob, 'credentials', at);
  if (!consumed.ok) return consumed;
  const { sub, loginName, passwordHash } = consumed.claims;
  return { ok: true as const, credentials: { sub, loginName: loginName!, passwordHash: passwordHash! } };
}

/** A `loginName` is an e-mail address, an E.164 phone number ('+8613800138000') or a chain-partner usId. */
function identityOfLoginName(loginName: string): LoginIdentity | undefined {
  try {
    if (loginName.includes('@')) return { email: emailRecipient(loginName) };
    if (loginName.startsWith('+')) return { phone: phoneRecipientFromE164(loginName) };
    return { usId: loginName };
  } catch {
    return undefined;
  }
}

/**
 * The password sign-in of a `userNameAndPwd` blob: the password sign-in of the sign-in screens
 * (services/sign-in.ts: same failure count per name and network, lock, decoy KDF), admitting only the blob's
 * `sub` (and on the partner host only a partner). What the edge cannot do is refused without a session: the
 * human check (it has no slider to show), the SY9990 salt round trip, and the insecure-password change a
 * password on the blocklist needs (the hash shows only that part of the password rule). The user id on success.
 */
async function credentialsSignIn(
  env: WorkerEnv,
  credentials: { sub: string; loginName: string; passwordHash: string },
  { partner, network, now, client }: { partner: boolean; network: string; now: number; client: ClientInfo },
): Promise<string | undefined> {
  const identity = identityOfLoginName(credentials.loginName);
  if (!identity || (await isCommonPassword(credentials.passwordHash))) {
    // The same KDF work as a real check, so a refusal never answers faster than a wrong password.
    await verifyPassword(credentials.passwordHash, null, env);
    return undefined;
  }
  try {
    const result = await checkPassword(env, identity, { password: credentials.passwordHash, passwordVersion: 2 }, {
      network,
      now,
      admits: (user) => user.id === credentials.sub && (!partner || user.is_partner === 1),
      history: { method: 'handoff', partner, client },
    });
    if (result.outcome !== 'signed-in') return undefined;
    if (result.before.length) await runBatch(env.DB, result.before);
    return result.user.id;
  } catch (error) {
    // US0010 (and a malformed name) is "these credentials sign no one in"; anything else is a real fault.
    if (error instanceof GatewayError) return undefined;
    throw error;
  }
}

/** Outcome of the blobs on one URL: a user to start a session for (if any), or why they were refused. */
type Intake = { ok: true; userId?: string; viaCredentials?: boolean } | { ok: false; reason: HandoffFailure };

/** The hand-off parameters present, each once (a repeated one is refused as invalid). */
type Blobs = Partial<Record<HandoffParam, string>>;

function blobsOf(read: (name: HandoffParam) => string[]): Blobs | undefined {
  const blobs: Blobs = {};
  for (const name of paramNames) {
    const values = read(name);
    if (values.length > 1) return undefined;
    if (values.length === 1) blobs[name] = values[0];
  }
  return blobs;
}

/**
 * Whom the blobs speak for, read without using them up: one user id, undefined for none, or a refusal when
 * a blob does not open or two blobs name different people.
 */
async function claimedUser(env: WorkerEnv, blobs: Blobs, at: number): Promise<{ ok: true; userId?: string } | { ok: false; reason: HandoffFailure }> {
  let userId: string | undefined;
  for (const name of paramNames) {
    const blob = blobs[name];
    if (blob === undefined) continue;
    const opened = await openHandoff(env, blob, handoffParams[name], at);
    if (!opened.ok) return opened;
    if (userId !== undefined && userId !== opened.claims.sub) return { ok: false, reason: 'invalid' };
    userId = opened.claims.sub;
  }
  return { ok: true, userId };
}

/** `network` is the client network a credentials sign-in counts its failures under (services/sign-in.ts). */
async function takeBlobs(
  env: WorkerEnv,
  blobs: Blobs,
  { partner, network, at, client }: { partner: boolean; network: string; at: number; client: ClientInfo },
): Promise<Intake> {
  let userId: string | undefined;
  let viaCredentials = false;
  for (const name of paramNames) {
    const blob = blobs[name];
    if (blob === undefined) continue;
    if (handoffParams[name] === 'credentials') {
      viaCredentials = true;
      const consumed = await consumeCredentialsHandoff(env, blob, at);
      if (!consumed.ok) return consumed;
      // The credentials are used for this one sign-in and dropped with the request.
      const signedInAs = await credentialsSignIn(env, consumed.credentials, { partner, network, now: at, client });
      if (!signedInAs) return { ok: false, reason: 'credentials' };
      if (userId !== undefined && userId !== signedInAs) return { ok: false, reason: 'invalid' };
      userId = signedInAs;
      continue;
    }
    const consumed = await consumeHandoff(env, blob, 'session', at);
    if (!consumed.ok) return consumed;
    // `token` and `userToken` on one URL must speak for one person.
    if (userId !== undefined && userId !== consumed.claims.sub) return { ok: false, reason: 'invalid' };
    userId = consumed.claims.sub;
  }
  if (userId !== undefined) {
    const user = await findUserById(env.DB, userId);
    // A partner session only for a partner (the navigator login admits no one else either).
    if (!user || (partner && user.is_partner !== 1)) return { ok: false, reason: 'invalid' };
  }
  return { ok: true, userId, viaCredentials };
}

/** Where a hand-off sends the visitor on: a path on this site, else the home page. */
const SAME_SITE_ONLY = { origins: [], fallback: '/', allowHttpLocalhost: false } as const;

/** The same page without its hand-off parameters, as a same-site Location ('/' if the path is not plain). */
function cleanLocation(url: URL): string {
  const query = new URLSearchParams(url.search);
  for (const name of paramNames) query.delete(name);
  return buildRedirect({ path: url.pathname, query }, SAME_SITE_ONLY);
}

/** Uses the blobs, starts the session they name (if any) and sends the visitor on to `next` (303). */
async function completeHandoff(c: Context<EdgeBindings>, blobs: Blobs, next: string): Promise<Response> {
  const url = new URL(c.req.url);
  const partner = isNavigatorHost(url.hostname, c.var.config.navigatorHostLabel);
  // As the proxy counts it: Cloudflare's address (IPv6 by /64); a request that names none gets a bucket of its own.
  const named = clientNetwork(c.req.raw.headers, c.var.config);
  const network = named ?? `unnamed-${crypto.randomUUID()}`;
  const client = clientInfoOf(c.req.header('user-agent'), clientCountry(c.req.raw, c.var.config), named);
  const intake = await takeBlobs(c.env, blobs, { partner, network, at: now(c), client });
  if (!intake.ok) return c.html(handoffErrorPage(visitorLang(c), intake.reason), 400);
  const kind = partner ? 'partner' : 'platform';
  if (intake.userId !== undefined && intake.viaCredentials && (await twoStepEnabled(c.env.DB, intake.userId))) {
    // Name and password are a first factor: a person with two-step on gets no session here but the
    // second-step cookie, and the second-step screen of the sign-in page; the safe return path rides along as
    // RETURN_PARAM, which the sign-in follows once the second step is passed.
    const challenge = await prepareChallenge(c.env.DB, { userId: intake.userId, method: 'handoff', options: { kind, agreedTo: [] }, now: now(c) });
    await challenge.statement.run();
    setSecondStepCookie(c, secondStepCookie(url, c.var.config.navigatorHostLabel), challenge.token, CHALLENGE_LIFETIME_MS / 1000);
    return c.redirect(`${partner ? '/navigator_login' : '/login'}?${new URLSearchParams({ secondStep: '1', [RETURN_PARAM]: next })}`, 303);
  }
  if (intake.userId !== undefined) {
    // Recorded in the sign-in history as a 'handoff' sign-in, like every other session start.
    const started = await startSession(c.env, {
      userId: intake.userId,
      kind,
      method: 'handoff',
      client,
      lang: visitorLang(c),
      at: now(c),
    }).catch((error: unknown) => {
      if (error instanceof GatewayError && error.code === 'PS0100') return null;
      throw error;
    });
    if (!started) return c.html(handoffErrorPage(visitorLang(c), 'blocked'), 403);
    const session = started;
    setSessionCookies(c, tokenCookie(url, c.var.config.navigatorHostLabel), session.token);
  }
  return c.redirect(next, 303);
}

/** The user id of this browser's live session, if any. */
async function signedInUser(c: Context<EdgeBindings>): Promise<string | undefined> {
  const token = sessionTokenOf(c);
  return token ? (await findSession(c.env.DB, token, now(c), idleTimeoutMs(c.env)))?.user_id : undefined;
}

/**
 * Hand-off intake: a page request carrying `token`, `userToken` or `userNameAndPwd` has every blob verified
 * and consumed; session blobs, and credentials that pass the password sign-in, start a session (HttpOnly
 * cookie + marker). Credentials of a person with two-step on start none: they lead to /login's second step. The answer is a 303 to the same URL without those parameters, or a 400 page in the
 * visitor's language with no session.
 *
 * A blob for someone else than the person already signed in on this browser never replaces that session
 * silently (a link from an attacker would otherwise sign the victim into the attacker's account): the blobs
 * stay unused and a page asks which account to continue with; the other account takes over only by a
 * same-origin POST (handoffContinue), the person's own click.
 */
export const handoffIntake: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  const url = new URL(c.req.url);
  const isPage = c.req.method === 'GET' || c.req.method === 'HEAD';
  if (!isPage || /^\/api(\/|$)/.test(url.pathname) || !paramNames.some((name) => url.searchParams.has(name))) {
    return next();
  }
  // The blobs are in this URL: keep it out of any Referer and any cache, whatever the outcome.
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  const lang = visitorLang(c);
  const blobs = blobsOf((name) => url.searchParams.getAll(name));
  if (!blobs) return c.html(handoffErrorPage(lang, 'invalid'), 400);
  const clean = cleanLocation(url);

  const current = await signedInUser(c);
  if (current !== undefined) {
    const claimed = await claimedUser(c.env, blobs, now(c));
    if (!claimed.ok) return c.html(handoffErrorPage(lang, claimed.reason), 400);
    if (claimed.userId !== undefined && claimed.userId !== current) return c.html(accountChoicePage(lang, blobs, clean), 200);
  }
  return completeHandoff(c, blobs, clean);
};

/** Where the account-choice page posts the person's choice of the other account. */
export const HANDOFF_CONTINUE_PATH = '/handoff/continue';

const continueForm = z.object({
  next: z.string().max(2048),
  token: z.string().max(4096).optional(),
  userToken: z.string().max(4096).optional(),
  userNameAndPwd: z.string().max(4096).optional(),
});

const continueCsrf = (c: Context<EdgeBindings>) =>
  csrf({ origin: (origin) => c.var.config.siteOrigins.includes(origin), secFetchSite: 'same-origin' });

/**
 * POST from the account-choice page: the person chose the other account. Hono's `csrf` admits only a form
 * posted by this site's own page (Sec-Fetch-Site same-origin, or a configured Origin); the blobs are then
 * used as on arrival and the new session replaces the old one.
 */
export const handoffContinue = async (c: Context<EdgeBindings>): Promise<Response> => {
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  const lang = visitorLang(c);
  let allowed = false;
  try {
    await continueCsrf(c)(c, async () => {
      allowed = true;
    });
  } catch {
    allowed = false;
  }
  if (!allowed) return c.html(handoffErrorPage(lang, 'invalid'), 403);
  const form = continueForm.safeParse(await c.req.parseBody().catch(() => null));
  const blobs = form.success ? blobsOf((name) => (form.data[name] === undefined ? [] : [form.data[name]!])) : undefined;
  if (!form.success || !blobs || Object.keys(blobs).length === 0) return c.html(handoffErrorPage(lang, 'invalid'), 400);
  return completeHandoff(c, blobs, safeRedirect(form.data.next, SAME_SITE_ONLY));
};

const page = (lang: Lang, title: string, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>
:root{color-scheme:light;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans SC','PingFang SC','Microsoft YaHei',sans-serif;color:#1c2733;background:#f3f6f9;line-height:1.5}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px}
main{background:#fff;border:1px solid #d5dde6;border-radius:10px;padding:24px;max-width:30rem;width:100%}
h1{font-size:1.25rem;color:#0b3558;margin:0 0 12px}
a{color:#0f62ad}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin-top:20px;align-items:center}
button{font:inherit;border:0;border-radius:10px;background:#0f62ad;color:#fff;padding:10px 16px;cursor:pointer}
button:hover{background:#0a4c88}
:focus-visible{outline:none;box-shadow:0 0 0 3px #fff,0 0 0 5px #0f62ad}
</style></head>
<body><main>${body}</main></body>
</html>
`;

/** The small localised page of a refused hand-off. */
export function handoffErrorPage(lang: Lang, reason: HandoffFailure) {
  const m = workerMessagesFor(lang).handoff;
  return page(lang, m.title, html`<h1>${m.title}</h1><p data-handoff-error="${reason}">${m[reason]}</p><p><a href="/login">${m.backToLogin}</a></p>`);
}

/**
 * The page that asks which account to continue with: keeping the current one is a plain link to the clean
 * URL; the other account needs the form's POST. The blobs ride in the form, not in any URL.
 */
export function accountChoicePage(lang: Lang, blobs: Blobs, next: string) {
  const m = workerMessagesFor(lang).handoff;
  const fields = paramNames.filter((name) => blobs[name] !== undefined).map((name) => html`<input type="hidden" name="${name}" value="${blobs[name]}">`);
  return page(
    lang,
    m.switchTitle,
    html`<h1>${m.switchTitle}</h1><p>${m.switchBody}</p><p>${m.switchHint}</p>
<form method="post" action="${HANDOFF_CONTINUE_PATH}" data-handoff-choice><input type="hidden" name="next" value="${next}">${fields}
<div class="actions"><a href="${next}" data-keep-current>${m.keepCurrent}</a><button type="submit">${m.continueOther}</button></div></form>`,
  );
}
