import { Hono } from 'hono';
import {
  anonymousLoginRequest,
  chooseAccountRequest,
  type CompanyListItem,
  type LoginCaseAnswer,
} from '../../../src/schemas/auth';
import { companyTypeFromDb, verificationStatusFromDb } from '../../../src/schemas/onboarding';
import { birthdayProblem, updateUserInfoRequest } from '../../../src/schemas/profile';
import type { WorkerEnv } from '../../env';
import { membershipsFromJson, membershipsJsonSql, membershipsOfUser, type MembershipRow } from '../companies/db';
import { companiesRequiringTwoStep } from '../second-step/db';
import { entryOf, outsideByTwoStep } from '../companies/standing';
import { setPhoto, setUserType, updateProfile, type UserRow } from './db';
import { GatewayError, ok, requestLang } from '../errors';
import { now } from '../../contract';
import { findCountry } from '../places/countries';
import { findPort } from '../places/ports';
import { accountSizeOf, asLoginCaseMembership, closedCompanyRefusal, loginCaseOf } from '../sign-in/login-case';
import { bearerToken, findSession, idleTimeoutMs, requireSession, requireSessionReading, revokeSession, type SessionVariables } from '../sessions/service';
import { setSessionCompany } from '../sessions/db';
import { phoneParts, userRecord } from './user-record';
import { setPhotoRequest } from '../../../src/schemas/members';
import { validate } from '../validate';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * Calls of a signed-in user: login case, company list and choice, "me", logout. All but logout
 * need the session the edge passes as `Authorization: Bearer`, and answer TK00001 (401) without one.
 */

const displayName = (user: UserRow) => user.real_name || user.login_name;

/** Companies the user can enter: the account-choice list, the same ones accountSize counts. */
const enterable = (memberships: MembershipRow[]) => memberships.filter((m) => accountSizeOf([asLoginCaseMembership(m)]) === 1);

export const accountRoutes = new Hono<{ Bindings: WorkerEnv; Variables: SessionVariables }>()
  // Logout needs no valid session: whatever it says, the edge clears the cookies.
  .post('/c/user/v2/loginout', async (c) => {
    const token = bearerToken(c);
    const session = token ? await findSession(c.env.DB, token, now(c), idleTimeoutMs(c.env)) : null;
    if (session) await revokeSession(c.env.DB, session.token_hash, now(c));
    return ok(c, true);
  })

  .use('/agg-web/quick/user/findUserLoginCase', requireSession)
  .use('/agg-web/quick/user/anonymity/account/login', requireSession)
  .use('/c/user/v2/getCompanyListByToken', requireSession)
  .use('/agg-web/user/chooseAccount', requireSession)
  // The user record's companies come in the same round trip as the session (sessions/service.ts).
  .use('/agg-web/user/fetchMeByUserToken', requireSessionReading((userIdSql) => [membershipsJsonSql(userIdSql)]))
  .use('/agg-web/user/updateUserInfo', requireSession)
  .use('/agg-web/user/setPhoto', requireSession)

  .post('/agg-web/quick/user/findUserLoginCase', async (c) => {
    const user = c.get('user');
    const memberships = await membershipsOfUser(c.env.DB, user.id);
    const port = user.pending_port_id ? findPort(user.pending_port_id) : undefined;
    const result = loginCaseOf(
      {
        originalFlag: user.original_flag === 1,
        userType: user.user_type,
        pendingCompanyName: user.pending_company_name,
        pendingPort: port ? { id: port.id, name: port.name, code: port.code } : null,
      },
      memberships.map(asLoginCaseMembership),
    );
    // A member of a company the platform blocked or let expire, with nothing else to enter or wait for, is told
    // so (RV0010/RV0011) instead of being sent to create a company (case 2) or to start again (case 9).
    const startsOver = result.userLoginCase === 2 || result.userLoginCase === 9;
    const refusal = startsOver && result.accountSize === 0 && user.original_flag !== 1 ? closedCompanyRefusal(memberships.map(asLoginCaseMembership)) : null;
    if (refusal) throw new GatewayError(refusal);
    const answer: LoginCaseAnswer = {
      userLoginCase: result.userLoginCase,
      userType: user.user_type,
      registerMobile: phoneParts(user.phone_e164)?.mobile ?? null,
      username: displayName(user),
      userId: user.id,
      companyInfo: result.companyName === null ? null : { name: result.companyName, ports: result.ports },
      ifJumpToSaas: result.ifJumpToSaas,
      originalFlag: user.original_flag === 1,
      accountSize: result.accountSize,
    };
    return ok(c, answer);
  })

  // Login case 3: the person goes on as an individual (no enterprise).
  .post('/agg-web/quick/user/anonymity/account/login', validate('json', anonymousLoginRequest), async (c) => {
    await setUserType(c.env.DB, c.get('user').id, 1);
    return ok(c, null);
  })

  .post('/c/user/v2/getCompanyListByToken', async (c) => {
    // Every company the person belongs to or applied to, with its verification status; only the enterable
    // ones can be chosen (canEnter), the others show where their application stands.
    const memberships = (await membershipsOfUser(c.env.DB, c.get('user').id)).filter((m) => m.member_status !== 'rejected');
    const requiring = await companiesRequiringTwoStep(c.env.DB, memberships.map((m) => m.company_id));
    const list: CompanyListItem[] = memberships.map((m) => ({
      companyId: m.company_id,
      companyNameEn: m.name_en,
      companyNameCn: m.name_cn,
      companyType: companyTypeFromDb(m.type),
      role: m.role,
      status: verificationStatusFromDb(m.company_status),
      isMain: m.is_main === 1,
      // The company's two-step rule keeps out a member without two-step (companies/standing.ts): not enterable,
      // and twoStepRequired says why, so the card asks for two-step instead of offering Enter.
      ...entryOf(m, enterable([m]).length === 1),
      memberStatus: m.member_status as 'pending' | 'active' | 'rejected',
      requireTwoStep: requiring.has(m.company_id),
      review: { reason: m.review_reason, note: m.review_note, reviewedAt: m.reviewed_at },
    }));
    return ok(c, list);
  })

  .post('/agg-web/user/chooseAccount', validate('json', chooseAccountRequest), async (c) => {
    const { companyId } = c.req.valid('json');
    const memberships = await membershipsOfUser(c.env.DB, c.get('user').id);
    if (!enterable(memberships).some((m) => m.company_id === companyId)) {
      const membership = memberships.find((m) => m.company_id === companyId);
      throw new GatewayError((membership && closedCompanyRefusal([asLoginCaseMembership(membership)])) || ERR.NOT_MEMBER_OF_COMPANY);
    }
    // A company that requires two-step is entered only by members who have it on (companies/standing.ts decides).
    if (memberships.some((m) => m.company_id === companyId && outsideByTwoStep(m))) throw new GatewayError(ERR.TWO_STEP_REQUIRED_BY_COMPANY);
    await setSessionCompany(c.env.DB, c.get('session').token_hash, companyId);
    return ok(c, null);
  })

  .get('/agg-web/user/fetchMeByUserToken', async (c) => {
    const memberships = membershipsFromJson(c.get('alsoRead')?.[0]);
    return ok(c, await userRecord(c.env.DB, c.get('user'), c.get('session').current_company_id, requestLang(c), memberships));
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
    return ok(c, await userRecord(c.env.DB, updated, c.get('session').current_company_id, requestLang(c)));
  })

  // The person's photo: one of their own uploaded images not attached to a company (uploadFile kind 'logo'
  // takes only JPEG and PNG); null removes it. Checked and set in one statement.
  .post('/agg-web/user/setPhoto', validate('json', setPhotoRequest), async (c) => {
    const { fileId } = c.req.valid('json');
    if (!(await setPhoto(c.env.DB, c.get('user').id, fileId))) throw new GatewayError(ERR.PHOTO_INVALID);
    const user = { ...c.get('user'), photo_file_id: fileId };
    return ok(c, await userRecord(c.env.DB, user, c.get('session').current_company_id, requestLang(c)));
  });
