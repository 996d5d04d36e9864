import type { MiddlewareHandler } from 'hono';
import { messagesFor } from '../../src/i18n';
import type { Lang } from '../../src/lib/lang';
import type { EdgeBindings, WorkerEnv } from '../env';
import { findUserById, findUserByIdentity, recordPasswordFailure, resetPasswordFailuresStatement, storedPasswordOf, type LoginIdentity } from '../gateway/db/users';
import { emailRecipient, phoneRecipientFromE164 } from '../gateway/services/identity';
import { verifyPassword } from '../gateway/services/passwords';
import { isLocked, needsSlider } from '../gateway/services/risk';
import { createSession } from '../gateway/services/sessions';
import { configOf } from '../config';
import { handoffKeys } from './handoff-keys';
import { handoffClock, openHandoffBlob, type HandoffClaims, type HandoffPurpose, type HandoffRefusal } from './handoff-blob';
import { isNavigatorHost, visitorLang } from './lang';
import { cookiesAreSecure, sessionCookies, tokenCookieName } from './session-cookies';

export {
  createHandoffBlob,
  handoffClaims,
  handoffClock,
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

/** 'credentials': a `userNameAndPwd` blob was genuine, but its name and password do not sign anyone in here. */
export type HandoffFailure = HandoffRefusal | 'replayed' | 'credentials';
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

/** Verifies, decrypts and consumes one blob meant for this site (HANDOFF_AUDIENCE) and `purpose`. */
export async function consumeHandoff(env: WorkerEnv, blob: string, purpose: HandoffPurpose): Promise<ConsumedHandoff> {
  // The keys' form (base64 of 32 bytes) is checked when the configuration is parsed.
  const config = configOf(env);
  const keys = await handoffKeys(config);
  const now = handoffClock.now();
  const opened = await openHandoffBlob(blob, { keys, audience: config.handoffAudience, purpose, now });
  if (!opened.ok) return opened;
  if (!(await recordHandoffJti(env.DB, opened.claims, now))) return { ok: false, reason: 'replayed' };
  return opened;
}

/**
 * Verifies and consumes a `userNameAndPwd` blob and returns its `loginName` and `passwordHash` (the
 * client-side SHA-256 hex the browser sends as a password). The caller uses them for exactly one sign-in and must never store or
 * log them.
 */
export async function consumeCredentialsHandoff(env: WorkerEnv, blob: string) {
  const consumed = await consumeHandoff(env, blob, 'credentials');
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
 * The password sign-in of a `userNameAndPwd` blob, under the rules of the sign-in screen's password login:
 * the name must belong to the blob's `sub`; a locked account, a partner-only host, a legacy (salted)
 * password record and an account that needs the risk slider are refused (the form can show a slider, the
 * edge cannot); a wrong password counts as a failure. The user id on success.
 */
async function credentialsSignIn(
  env: WorkerEnv,
  credentials: { sub: string; loginName: string; passwordHash: string },
  partner: boolean,
  now: number,
): Promise<string | undefined> {
  const identity = identityOfLoginName(credentials.loginName);
  const user = identity ? await findUserByIdentity(env.DB, identity) : null;
  const risk = user ? { failedLogins: user.failed_logins, lockedUntil: user.locked_until } : null;
  if (!user || !risk || user.id !== credentials.sub || (partner && user.is_partner !== 1) || isLocked(risk, now) || needsSlider(risk)) {
    // The same KDF work as a real check, so a refusal never answers faster than a wrong password.
    await verifyPassword(credentials.passwordHash, null, env);
    return undefined;
  }
  const check = await verifyPassword(credentials.passwordHash, user.password_version === 2 ? storedPasswordOf(user) : null, env);
  if (!check.ok) {
    await recordPasswordFailure(env.DB, user.id, now);
    return undefined;
  }
  await resetPasswordFailuresStatement(env.DB, user.id).run();
  return user.id;
}

/** Outcome of the blobs on one URL: a user to start a session for (if any), or why they were refused. */
type Intake = { ok: true; userId?: string } | { ok: false; reason: HandoffFailure };

async function takeBlobs(env: WorkerEnv, params: URLSearchParams, partner: boolean): Promise<Intake> {
  let userId: string | undefined;
  for (const name of paramNames) {
    const values = params.getAll(name);
    if (values.length === 0) continue;
    if (values.length > 1) return { ok: false, reason: 'invalid' };
    if (handoffParams[name] === 'credentials') {
      const consumed = await consumeCredentialsHandoff(env, values[0]!);
      if (!consumed.ok) return consumed;
      // The credentials are used for this one sign-in and dropped with the request.
      const signedInAs = await credentialsSignIn(env, consumed.credentials, partner, handoffClock.now());
      if (!signedInAs) return { ok: false, reason: 'credentials' };
      if (userId !== undefined && userId !== signedInAs) return { ok: false, reason: 'invalid' };
      userId = signedInAs;
      continue;
    }
    const consumed = await consumeHandoff(env, values[0]!, 'session');
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
  return { ok: true, userId };
}

/**
 * Hand-off intake: a page request carrying `token`, `userToken` or `userNameAndPwd` has every blob verified
 * and consumed; session blobs, and credentials that pass the password sign-in, start a session (HttpOnly
 * cookie + marker). The answer is a 303 to the same URL
 * without those parameters, or a 400 page in the visitor's language with no session.
 */
export const handoffIntake: MiddlewareHandler<EdgeBindings> = async (c, next) => {
  const url = new URL(c.req.url);
  const isPage = c.req.method === 'GET' || c.req.method === 'HEAD';
  if (!isPage || /^\/api(\/|$)/.test(url.pathname) || !paramNames.some((name) => url.searchParams.has(name))) {
    return next();
  }
  const label = c.var.config.navigatorHostLabel;
  const partner = isNavigatorHost(url.hostname, label);
  const intake = await takeBlobs(c.env, url.searchParams, partner);
  // The blobs are in this URL: keep it out of any Referer and any cache, whatever the outcome.
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  if (!intake.ok) return c.html(handoffErrorPage(visitorLang(c), intake.reason), 400);

  if (intake.userId !== undefined) {
    const session = await createSession(c.env.DB, { userId: intake.userId, kind: partner ? 'partner' : 'platform', now: handoffClock.now() });
    for (const cookie of sessionCookies(tokenCookieName(url.hostname, label), session.token, cookiesAreSecure(url))) {
      c.header('Set-Cookie', cookie, { append: true });
    }
  }
  for (const name of paramNames) url.searchParams.delete(name);
  return c.redirect(url.pathname + url.search, 303);
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The small localised page of a refused hand-off. */
export function handoffErrorPage(lang: Lang, reason: HandoffFailure): string {
  const m = messagesFor(lang).handoff;
  return `<!doctype html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(m.title)}</title></head>
<body><main><h1>${escapeHtml(m.title)}</h1><p data-handoff-error="${reason}">${escapeHtml(m[reason])}</p><p><a href="/login">${escapeHtml(m.backToLogin)}</a></p></main></body>
</html>
`;
}
