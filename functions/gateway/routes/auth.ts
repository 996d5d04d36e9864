import { Hono, type Context } from 'hono';
import {
  chainLoginRequest,
  checkIsNewUserRequest,
  emailPasswordLoginRequest,
  LOGIN_TYPE,
  phonePasswordLoginRequest,
  quickLoginRequest,
  TRACELESS,
  userSaltRequest,
  type LoginAnswer,
  type QuickLoginRequest,
} from '../../../src/schemas/auth';
import type { WorkerEnv } from '../../env';
import { readJson } from '../body';
import { consentStatements, defaultConsentDocs, needsConsent } from '../services/consents';
import type { LegalDoc } from '../../../src/lib/legal';
import { asLoginCaseMembership, membershipsOfUser } from '../db/companies';
import {
  findUserByIdentity,
  identityKey,
  insertUserStatement,
  recordPasswordFailure,
  resetPasswordFailuresStatement,
  runBatch,
  setPasswordStatement,
  storedPasswordOf,
  type LoginIdentity,
  type NewUser,
  type UserRow,
} from '../db/users';
import { clientIp, fail, GatewayError, ok } from '../errors';
import { now } from '../services/clock';
import { consumeCode } from '../services/codes';
import { emailRecipient, phoneRecipient } from '../services/identity';
import { accountSizeOf } from '../services/login-case';
import { assertNewPasswordAllowed, decoySalt, hashPassword, verifyPassword } from '../services/passwords';
import { isLocked, needsSlider, passedLoginSlider } from '../services/risk';
import { prepareSession, revokeAllSessionsOfUser, SESSION_LIFETIME_S, type SessionKind } from '../services/sessions';

export type AuthEnv = { Bindings: WorkerEnv };

/**
 * Sign-in calls (spec 7, issue 3). A successful sign-in answers loginAnswer plus `oauthVO`; the edge turns
 * oauthVO into HttpOnly cookies and removes it, so the browser never holds a token.
 *
 * Password sign-in (e-mail, phone, chain-partner usId) shares one path, `passwordSignIn`:
 * unknown account, wrong password, wrong protocol version and a locked account all answer the same US0010;
 * after 3 consecutive failures a passed slider (nvcvalStr) is required (tracelessCheckResult 400 otherwise);
 * a legacy record (password_version 1) asked with version 2 answers SY9990, and the client retries with the
 * salt from getUserSalt. Legacy records stay version 1 after a salted sign-in (the request carries only the
 * salted hash); they move to version 2 when the insecure-password modal sends `newPassword`.
 */

/** The identity a quick-login or checkIsNewUser request names; US0005 when the chosen one is missing. */
function quickIdentity(body: { loginType: 1 | 2; mobileCode?: string; mobile?: string; loginEmail?: string }): LoginIdentity {
  if (body.loginType === LOGIN_TYPE.phone) {
    if (!body.mobileCode || !body.mobile) throw new GatewayError('US0005');
    return { phone: phoneRecipient(body.mobileCode, body.mobile) };
  }
  if (!body.loginEmail) throw new GatewayError('US0005');
  return { email: emailRecipient(body.loginEmail) };
}

/** quickLoginRequest, with an unticked agreement answered by its own message (spec 8) rather than GW0400. */
async function readQuickLogin(c: Context): Promise<QuickLoginRequest> {
  try {
    return await readJson(c, quickLoginRequest);
  } catch (error) {
    const issues = error instanceof GatewayError && error.code === 'GW0400' && Array.isArray(error.data) ? error.data : [];
    if (issues.some((issue: { path?: string }) => issue.path === 'agreed')) throw new GatewayError('US0002');
    throw error;
  }
}

/** The answer when the risk check wants a slider first: no session, nothing about the account. */
const SLIDER_REQUIRED: LoginAnswer = {
  accountSize: 0,
  companyId: null,
  isMaster: false,
  originalFlag: false,
  tracelessCheckResult: TRACELESS.sliderRequired,
  userId: '',
  newUser: false,
  type: 0,
};

/**
 * Starts a session for `user` and answers the login response (also for the sign-in links, login-links.ts). `before` runs in the same batch as the
 * session (a new user's INSERT, a password update), so either all of it is written or none.
 */
export async function signedIn<E extends AuthEnv>(
  c: Context<E>,
  user: Pick<UserRow, 'id' | 'original_flag' | 'user_type'>,
  {
    newUser = false,
    before = [] as D1PreparedStatement[],
    agreedTo = [] as readonly LegalDoc[],
    kind = 'platform' as SessionKind,
  }: { newUser?: boolean; before?: D1PreparedStatement[]; agreedTo?: readonly LegalDoc[]; kind?: SessionKind } = {},
) {
  const db = c.env.DB;
  // Ticking the agreement (or registering) records the versions agreed to, in the same batch as the session.
  const consents = consentStatements(db, user.id, now(c), agreedTo);
  const memberships = newUser ? [] : await membershipsOfUser(db, user.id);
  // A main company the user can enter makes the account "master": the client chooses it and skips the list.
  const main = memberships.find((m) => m.is_main === 1 && accountSizeOf([asLoginCaseMembership(m)]) === 1);
  const session = await prepareSession(db, { userId: user.id, kind, now: now(c), companyId: main?.company_id ?? null });
  await runBatch(db, [...before, ...consents, session.statement]);
  const answer: LoginAnswer = {
    accountSize: accountSizeOf(memberships.map(asLoginCaseMembership)),
    companyId: main?.company_id ?? null,
    isMaster: Boolean(main),
    originalFlag: user.original_flag === 1,
    tracelessCheckResult: TRACELESS.pass,
    userId: user.id,
    newUser,
    type: user.user_type,
    // A changed terms version asks a signed-in person to agree again before going on.
    needsConsent: !agreedTo.includes('terms') && (await needsConsent(db, user.id)),
  };
  return ok(c, {
    ...answer,
    oauthVO: {
      access_token: session.token,
      refresh_token: session.refreshToken,
      token_type: 'bearer',
      expires_in: SESSION_LIFETIME_S,
      isMainAccount: Boolean(main),
    },
  });
}

export interface PasswordAttempt {
  password: string;
  passwordVersion: 1 | 2;
  newPassword?: string;
  nvcvalStr?: string;
}

/** How the partner sign-in differs: partners only, a partner session, and a slider already passed. */
export interface PasswordSignInOptions {
  kind?: SessionKind;
  partnersOnly?: boolean;
  sliderPassed?: boolean;
}

/**
 * A password sign-in for every login screen: the same answer (US0010) for an unknown, locked or (on the
 * partner login) non-partner account after the same KDF work; the risk slider; SY9990; the insecure-password
 * replacement; then the session.
 */
export async function passwordSignIn(
  c: Context<AuthEnv>,
  identity: LoginIdentity,
  attempt: PasswordAttempt,
  { kind = 'platform', partnersOnly = false, sliderPassed = false }: PasswordSignInOptions = {},
) {
  const { DB: db } = c.env;
  const at = now(c);
  const user = await findUserByIdentity(db, identity);
  if (!user || (partnersOnly && user.is_partner !== 1) || isLocked({ failedLogins: user.failed_logins, lockedUntil: user.locked_until }, at)) {
    // The same KDF work as a real check, so neither a missing nor a locked account answers faster.
    await verifyPassword(attempt.password, null, c.env);
    throw new GatewayError('US0010');
  }
  if (
    !sliderPassed &&
    needsSlider({ failedLogins: user.failed_logins, lockedUntil: user.locked_until }) &&
    !(await passedLoginSlider(c.env, attempt.nvcvalStr, identityKey(identity), at))
  ) {
    return ok(c, SLIDER_REQUIRED);
  }
  if (user.password_version === 1 && attempt.passwordVersion === 2) return fail(c, 'SY9990');

  const stored = storedPasswordOf(user);
  const check = await verifyPassword(attempt.password, stored, c.env);
  if (!check.ok || attempt.passwordVersion !== user.password_version) {
    await recordPasswordFailure(db, user.id, at);
    throw new GatewayError('US0010');
  }

  const before = [resetPasswordFailuresStatement(db, user.id)];
  let originalFlag = user.original_flag;
  if (attempt.newPassword) {
    // The insecure-password modal was confirmed: the new password replaces the old one (as version 2) and
    // every other session of the account ends.
    await assertNewPasswordAllowed(attempt.newPassword);
    before.push(setPasswordStatement(db, user.id, await hashPassword(attempt.newPassword, c.env), { version: 2, clearOriginalFlag: true }));
    await revokeAllSessionsOfUser(db, user.id, undefined, at);
    originalFlag = 0;
  } else if (check.needsRehash) {
    before.push(setPasswordStatement(db, user.id, await hashPassword(attempt.password, c.env), { version: user.password_version }));
  }
  return signedIn(c, { ...user, original_flag: originalFlag }, { before, kind });
}

export const authRoutes = new Hono<AuthEnv>()
  .post('/agg-web/quick/user/checkIsNewUser', async (c) => {
    const body = await readJson(c, checkIsNewUserRequest);
    return ok(c, (await findUserByIdentity(c.env.DB, quickIdentity(body))) === null);
  })

  // Code sign-in; registers a new user with the identity and company name given. Works while password
  // sign-in is locked (the code proves the person holds the phone or mailbox).
  .post('/agg-web/quick/user/login', async (c) => {
    const body = await readQuickLogin(c);
    const identity = quickIdentity(body);
    const db = c.env.DB;
    const existing = await findUserByIdentity(db, identity);
    // Checked before the code is consumed, so the person can fix the form and use the same code.
    if (!existing && (!body.userIdentity || !body.companyName)) throw new GatewayError('US0001');

    await consumeCode(db, { recipient: identityKey(identity), purpose: 'login', code: body.code, ip: clientIp(c), now: now(c) });
    if (existing) return signedIn(c, existing, { agreedTo: defaultConsentDocs });

    const user: NewUser & { id: string } = {
      id: crypto.randomUUID(),
      phone: 'phone' in identity ? identity.phone : null,
      email: 'email' in identity ? identity.email : null,
      identity: body.userIdentity ?? null,
      pendingCompanyName: body.companyName ?? null,
      source: 'quick-login',
      now: now(c),
    };
    // One batch with the session: a parallel registration of the same identity fails whole (US0003).
    return signedIn(c, { id: user.id, original_flag: 0, user_type: 0 }, {
      newUser: true,
      before: [insertUserStatement(db, user)],
      agreedTo: [...defaultConsentDocs, 'registration'],
    });
  })

  .post('/agg-web/user/v3/userLogin', async (c) => {
    const body = await readJson(c, emailPasswordLoginRequest);
    return passwordSignIn(c, { email: emailRecipient(body.loginEmail) }, { ...body, password: body.loginPassword });
  })

  .post('/agg-web/user/loginByPhone', async (c) => {
    const body = await readJson(c, phonePasswordLoginRequest);
    return passwordSignIn(c, { phone: phoneRecipient(body.mobileCode, body.mobile) }, body);
  })

  .post('/agg-web/user/v2/yunLianLogin', async (c) => {
    const body = await readJson(c, chainLoginRequest);
    return passwordSignIn(c, { usId: body.usId }, body);
  })

  // The legacy salt of a version-1 record; for anyone else (unknown, or version 2) a stable decoy that looks
  // the same, so the answer never tells whether an account exists.
  .post('/agg-web/user/getUserSalt', async (c) => {
    const body = await readJson(c, userSaltRequest);
    let identity: LoginIdentity;
    if (body.type === 1) {
      if (!body.phone || !body.phoneCode) throw new GatewayError('US0005');
      identity = { phone: phoneRecipient(body.phoneCode, body.phone) };
    } else {
      if (!body.loginName) throw new GatewayError('US0005');
      identity = body.type === 2 ? { email: emailRecipient(body.loginName) } : { usId: body.loginName.trim() };
    }
    const user = await findUserByIdentity(c.env.DB, identity);
    const salt = user?.password_version === 1 && user.legacy_salt ? user.legacy_salt : await decoySalt(identityKey(identity), c.env);
    return ok(c, { salt });
  });
