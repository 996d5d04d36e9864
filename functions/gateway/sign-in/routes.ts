import { Hono } from 'hono';
import {
  chainLoginRequest,
  checkIsNewUserRequest,
  emailPasswordLoginRequest,
  phonePasswordLoginRequest,
  quickLoginRequest,
  userSaltRequest,
} from '../../../src/schemas/auth';
import { cappedInsert } from '../identity/db/limits';
import { findUserByIdentity, identityKey } from '../identity/db/people';
import { clientIp, ok } from '../errors';
import { now } from '../../contract';
import { identity } from '../identity/sign-in-names';
import { decoySalt } from '../identity/passwords';
import { codeSignIn, passwordSignIn, type SignInEnv } from './service';
import { signInHistory } from './history';
import { requireSession } from '../sessions/service';
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

/** The phone or e-mail fields of checkIsNewUser and quick login (loginType 1 or 2). */
type PhoneOrEmail = { loginType: 1 | 2; mobileCode?: string; mobile?: string; loginEmail?: string };

export const authRoutes = new Hono<SignInEnv>()
  // The person's own sign-in history (the user center's Security section). Mounted before securityRoutes, so its
  // own requireSession is the only session read of the call.
  .get('/agg-web/user/security/signIns', requireSession, async (c) => ok(c, await signInHistory(c.env.DB, c.get('user').id, now(c))))

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
      return codeSignIn(c, c.req.valid('json'));
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
