import { askerOf } from '../authority/service';
import { Hono } from 'hono';
import {
  anonymousLoginRequest,
  chooseAccountRequest,
} from '../../../src/schemas/auth';
import { birthdayProblem, updateUserInfoRequest } from '../../../src/schemas/profile';
import type { WorkerEnv } from '../../env';
import { setPhoto, setUserType, updateProfile } from './db';
import { clientIp, GatewayError, ok, requestLang } from '../errors';
import { now } from '../../contract';
import { findCountry } from '../places/countries';
import { endView } from '../support/service';
import { bearerToken, findSession, idleTimeoutMs, requireSession, requireSessionReading, revokeSession } from '../sessions/service';
import { type SessionVariables } from '../identity/db/sessions';
import { userRecord } from './user-record';
import { actFor, actingChoicesOf, chooseCompany, companyListOf, loginCaseAnswer, membershipsReadWithSession, membershipsWithSession } from './service';
import { setPhotoRequest } from '../../../src/schemas/members';
import { actForRequest } from '../../../src/schemas/grants';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Calls of a signed-in user: login case, company list and choice, "me", logout. All but logout
 * need the session the edge passes as `Authorization: Bearer`, and answer TK00001 (401) without one.
 */

export const accountRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  // Logout needs no valid session: whatever it says, the edge clears the cookies.
  .post('/c/user/v2/loginout', async (c) => {
    const token = bearerToken(c);
    const session = token ? await findSession(c.env.DB, token, now(c), idleTimeoutMs(c.env)) : null;
    // Signing out of a support "view as" ends it as its End does: the person is told (support/service.ts).
    if (session?.support_operator_id) await endView(c.env, session, { kind: 'operator', id: session.support_operator_id }, now(c), clientIp(c), requestLang(c));
    else if (session) await revokeSession(c.env.DB, session, now(c));
    return ok(c, true);
  })

  .use('/agg-web/quick/user/findUserLoginCase', requireSession)
  .use('/agg-web/quick/user/anonymity/account/login', requireSession)
  .use('/c/user/v2/getCompanyListByToken', requireSession)
  .use('/agg-web/user/chooseAccount', requireSession)
  .use('/agg-web/user/actingChoices', requireSession)
  .use('/agg-web/user/actFor', requireSession)
  // The user record's companies come in the same round trip as the session (sessions/service.ts).
  .use('/agg-web/user/fetchMeByUserToken', requireSessionReading(membershipsWithSession))
  .use('/agg-web/user/updateUserInfo', requireSession)
  .use('/agg-web/user/setPhoto', requireSession)

  .post('/agg-web/quick/user/findUserLoginCase', async (c) => ok(c, await loginCaseAnswer(c.env.DB, c.get('user'), askerOf(c.get('session')))))

  // Login case 3: the person goes on as an individual (no enterprise).
  .post('/agg-web/quick/user/anonymity/account/login', validate('json', anonymousLoginRequest), async (c) => {
    await setUserType(c.env.DB, c.get('user').id, 1);
    return ok(c, null);
  })

  .post('/c/user/v2/getCompanyListByToken', async (c) => ok(c, await companyListOf(c.env.DB, askerOf(c.get('session')))))

  .post('/agg-web/user/chooseAccount', validate('json', chooseAccountRequest), async (c) => {
    await chooseCompany(c.env.DB, askerOf(c.get('session')), c.get('session').token_hash, c.req.valid('json').companyId);
    return ok(c, null);
  })

  // Acting for another company under a grant (issue 41): the choices, and choosing one.
  .post('/agg-web/user/actingChoices', async (c) => ok(c, await actingChoicesOf(c.env.DB, askerOf(c.get('session')), now(c), requestLang(c))))
  .post('/agg-web/user/actFor', validate('json', actForRequest), async (c) => {
    await actFor(c.env.DB, askerOf(c.get('session')), c.get('session').token_hash, c.req.valid('json').grantId, now(c), requestLang(c));
    return ok(c, null);
  })

  .get('/agg-web/user/fetchMeByUserToken', async (c) => {
    const memberships = membershipsReadWithSession(c.get('alsoRead'));
    return ok(c, await userRecord(c.env.DB, c.get('user'), c.get('session'), requestLang(c), now(c), memberships));
  })

  // The person's own profile. Every field is sent; a null optional field clears it.
  .post('/agg-web/user/updateUserInfo', validate('json', updateUserInfoRequest), async (c) => {
    const body = c.req.valid('json');
    const problem = birthdayProblem(body.birthday, now(c));
    if (problem) throw new GatewayError(problem, { path: 'birthday' });
    const country = body.countryId === null ? null : findCountry(body.countryId);
    if (country === undefined) throw new GatewayError(ERR.COUNTRY_NOT_LISTED, { path: 'countryId' });
    const updated = await updateProfile(c.env.DB, c.get('user').id, {
      realName: body.realName,
      countryId: country?.id ?? null,
      countryName: country?.name ?? null,
      birthday: body.birthday,
      sex: body.sex,
    });
    // The session's user was deleted in between: as with any ended session.
    if (!updated) throw new GatewayError(ERR.SESSION_ENDED);
    return ok(c, await userRecord(c.env.DB, updated, c.get('session'), requestLang(c), now(c)));
  })

  // The person's photo: one of their own uploaded images not attached to a company (uploadFile kind 'logo'
  // takes only JPEG and PNG); null removes it. Checked and set in one statement.
  .post('/agg-web/user/setPhoto', validate('json', setPhotoRequest), async (c) => {
    const { fileId } = c.req.valid('json');
    if (!(await setPhoto(c.env.DB, c.get('user').id, fileId))) throw new GatewayError(ERR.PHOTO_INVALID);
    const user = { ...c.get('user'), photo_file_id: fileId };
    return ok(c, await userRecord(c.env.DB, user, c.get('session'), requestLang(c), now(c)));
  });
