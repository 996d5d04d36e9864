import { Hono } from 'hono';
import {
  chainLoginRequest,
  checkIsNewUserRequest,
  emailPasswordLoginRequest,
  phonePasswordLoginRequest,
  quickLoginRequest,
  userSaltRequest,
} from '../../../src/schemas/auth';
import { defaultConsentDocs } from '../legal/consents';
import { cappedInsert } from '../limits/db';
import { findUserByIdentity, findUserByIdentityStatement, identityKey, insertUserStatement, type NewUser, type UserRow } from '../account/db';
import { clientIp, GatewayError, ok } from '../errors';
import { now } from '../../contract';
import { checkCode, spendCheckedCode, useCheckedCodeStatements, usedCodeRefusal, type CheckedCode } from '../codes/service';
import { identity } from '../identity/sign-in-names';
import { findPort } from '../places/ports';
import { decoySalt } from '../identity/passwords';
import { clientInfo } from '../sessions/devices';
import { passwordSignIn, signedIn, type SignInEnv } from './service';
import { recordFailedSignIn } from './history';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Sign-in calls. A successful sign-in answers loginAnswer plus `oauthVO`; the edge turns
 * oauthVO into HttpOnly cookies and removes it, so the browser never holds a token. Password sign-in
 * (e-mail, phone, chain-partner usId) is sign-in/service.ts `passwordSignIn`.
 */

/** checkIsNewUser tells whether an account exists (by design), so it is capped per name and per client network. */
export const NEW_USER_CHECK_WINDOW_MS = 60 * 60 * 1000;
export const NEW_USER_CHECKS_PER_NAME = 10;
export const NEW_USER_CHECKS_PER_NETWORK = 60;

/** Answers of checkCode and spendCheckedCode that refuse the code itself (not a rate cap on the caller): a failed sign-in. */
export const CODE_REFUSALS = new Set<string>([ERR.CODE_WRONG, ERR.CODE_EXPIRED, ERR.CODE_TRIES_SPENT, ERR.CODE_NOT_REQUESTED, ERR.CODE_ALREADY_USED]);

/** The phone or e-mail fields of checkIsNewUser and quick login (loginType 1 or 2). */
type PhoneOrEmail = { loginType: 1 | 2; mobileCode?: string; mobile?: string; loginEmail?: string };

export const authRoutes = new Hono<SignInEnv>()
  .post('/agg-web/quick/user/checkIsNewUser', validate('json', checkIsNewUserRequest), async (c) => {
    const name = identity(c.req.valid('json') as PhoneOrEmail);
    const at = now(c);
    const since = at - NEW_USER_CHECK_WINDOW_MS;
    const ip = clientIp(c);
    const subject = identityKey(name);
    await cappedInsert(c.env.DB, {
      table: 'new_user_checks',
      row: { subject, ip, created_at: at },
      caps: [
        { where: { subject }, since, max: NEW_USER_CHECKS_PER_NAME, code: ERR.NEW_USER_CHECKS_CAPPED },
        { where: { ip }, since, max: NEW_USER_CHECKS_PER_NETWORK, code: ERR.NEW_USER_CHECKS_CAPPED },
      ],
    });
    return ok(c, (await findUserByIdentity(c.env.DB, name)) === null);
  })

  // Code sign-in; registers a new user with the identity and company name given. Works while password
  // sign-in is throttled (the code proves the person holds the phone or mailbox). An unticked agreement is
  // answered by its own message rather than GW0400.
  .post(
    '/agg-web/quick/user/login',
    validate('json', quickLoginRequest, { code: (issues) => (issues.some((issue) => issue.path[0] === 'agreed') ? ERR.AGREEMENT_NOT_ACCEPTED : ERR.REQUEST_INVALID) }),
    async (c) => {
      const body = c.req.valid('json');
      const name = identity(body as PhoneOrEmail);
      const db = c.env.DB;
      // A form that carries a registration's fields (identity, company name, a listed port or none) passes the
      // checks below whether or not the account exists: its account is then read in the code's first round trip.
      const registrationReady = Boolean(body.userIdentity && body.companyName) && (!body.portId || findPort(body.portId) !== undefined);
      let existing = registrationReady ? null : await findUserByIdentity(db, name);
      // Checked before the code is consumed, so the person can fix the form and use the same code.
      if (!existing && (!body.userIdentity || !body.companyName)) throw new GatewayError(ERR.COMPANY_NAME_MISSING);
      // A new user's port goes with the company name (login case 7 pre-fills both); one not on the list is refused.
      const portOf = (user: UserRow | null) => (!user && body.portId ? findPort(body.portId) : null);
      if (portOf(existing) === undefined) throw new GatewayError(ERR.PORT_NOT_LISTED, { path: 'portId' });

      let checked: CheckedCode;
      try {
        checked = await checkCode(
          db,
          { recipient: identityKey(name), purpose: 'login', code: body.code, ip: clientIp(c), now: now(c) },
          registrationReady ? { alsoRead: [findUserByIdentityStatement(db, name)], onRead: ([user]) => (existing = (user?.results[0] as UserRow | undefined) ?? null) } : {},
        );
        // An existing account's code is used in its sign-in's first read (the account's standing, two-step and
        // companies), before anything else is decided or written.
        if (existing) return await signedIn(c, existing, { method: 'code', agreedTo: defaultConsentDocs, spend: spendCheckedCode(db, checked, now(c)) });
      } catch (error) {
        // A wrong, expired or spent code for an existing account goes into its sign-in history, after the
        // answer: an unknown name writes nothing, so writing first would make a known one answer later.
        if (existing && error instanceof GatewayError && CODE_REFUSALS.has(error.code)) {
          const recorded = recordFailedSignIn(db, { userId: existing.id, at: now(c), method: 'code', partner: false, client: clientInfo(c) });
          c.executionCtx.waitUntil(recorded.catch((failure) => console.error('sign-in history not written', failure instanceof Error ? failure.message : failure)));
        }
        throw error;
      }
      const port = portOf(existing);
      const user: NewUser & { id: string } = {
        id: crypto.randomUUID(),
        phone: 'phone' in name ? name.phone : null,
        email: 'email' in name ? name.email : null,
        identity: body.userIdentity ?? null,
        pendingCompanyName: body.companyName ?? null,
        pendingPortId: port?.id ?? null,
        source: 'quick-login',
        now: now(c),
      };
      // One batch with the code's use and the session: the person is inserted only if this call used the code,
      // and the session's row needs the person, so a lost race writes nothing (CD0014); a parallel registration
      // of the same identity with another code fails whole too (US0003).
      return signedIn(c, { id: user.id, original_flag: 0, user_type: 0 }, {
        method: 'code',
        newUser: true,
        before: [...useCheckedCodeStatements(db, checked, now(c)), insertUserStatement(db, user, { onlyIfChanged: true })],
        refusal: usedCodeRefusal,
        agreedTo: [...defaultConsentDocs, 'registration'],
      });
    },
  )

  .post('/agg-web/user/v3/userLogin', validate('json', emailPasswordLoginRequest), async (c) => {
    const body = c.req.valid('json');
    return passwordSignIn(c, identity({ loginType: 2, loginEmail: body.loginEmail }), { ...body, password: body.loginPassword });
  })

  .post('/agg-web/user/loginByPhone', validate('json', phonePasswordLoginRequest), async (c) => {
    const body = c.req.valid('json');
    return passwordSignIn(c, identity({ loginType: 1, mobileCode: body.mobileCode, mobile: body.mobile }), body);
  })

  .post('/agg-web/user/v2/yunLianLogin', validate('json', chainLoginRequest), async (c) => {
    const body = c.req.valid('json');
    return passwordSignIn(c, identity({ loginType: 3, usId: body.usId }), body);
  })

  // The legacy salt of a version-1 record; for anyone else (unknown, or version 2) a stable decoy from the
  // HMAC of the name with the pepper that looks the same, so the answer never tells whether an account exists.
  .post('/agg-web/user/getUserSalt', validate('json', userSaltRequest), async (c) => {
    const body = c.req.valid('json');
    const name = identity({ loginType: body.type, mobileCode: body.phoneCode, mobile: body.phone, loginEmail: body.loginName, usId: body.loginName });
    const user = await findUserByIdentity(c.env.DB, name);
    const salt = user?.password_version === 1 && user.legacy_salt ? user.legacy_salt : await decoySalt(identityKey(name), c.env);
    return ok(c, { salt });
  });
