import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import type { Lang } from '../../../src/lib/lang';
import { fileUrl } from '../../../src/schemas/onboarding';
import type { MeAnswer } from '../../../src/schemas/profile';
import { membershipsOfUser } from '../companies/db';
import { type Asker, type MembershipRow } from '../authority/db';
import { actsIn, standingIn } from '../authority/service';
import { administratorName, grantsOf } from '../companies/members-db';
import type { UserRow } from '../identity/db/people';
import { findCountry } from '../places/countries';
import { accountSizeOf, asLoginCaseMembership } from '../companies/login-case';
import { modulesOfMember } from '../companies/modules';
import type { SessionRow } from '../identity/db/sessions';
import type { ActingChoice } from '../../../src/schemas/grants';
import { actingNow } from '../grants/service';
import { supportViewOf } from '../support/service';
import { endSessionActing } from '../sessions/db';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * The full user record (fetchMeByUserToken, updateUserInfo's answer): every field of the specification's User,
 * from real data. The company fields describe the account in use: the company chosen in this session
 * (chooseAccount), else the main enterprise, else the only company the person can enter (and may act in now:
 * authority/service.ts); without one they are
 * null (lists empty, superAdmin false). Every field is present; those without data are null, never missing.
 */

/** '+8613800138000' → the number's parts and the phone-code list id of its region ('CN'). */
export function phoneParts(e164: string | null): { mobile: string; code: string; region: string | null } | null {
  const parsed = e164 ? parsePhoneNumberFromString(e164) : undefined;
  return parsed ? { mobile: parsed.nationalNumber, code: `+${parsed.countryCallingCode}`, region: parsed.country ?? null } : null;
}

/**
 * The given name within a real name: a Chinese name of two to four characters after its one-character
 * surname (the common case; compound surnames are rare), the first word of a name of several words, else null.
 */
export function givenNameOf(realName: string): string | null {
  const name = realName.trim();
  if (/^\p{Script=Han}{2,4}$/u.test(name)) return name.slice(1);
  const words = name.split(/\s+/);
  return words.length > 1 ? words[0]! : null;
}

/**
 * The company of the account in use, among those the person can enter now: one whose two-step rule keeps
 * them out is none of them (authority/service.ts), even when this session chose it before the rule was on.
 */
function companyInUse(memberships: readonly MembershipRow[], sessionCompanyId: string | null): MembershipRow | null {
  const enterable = memberships.filter((m) => accountSizeOf([asLoginCaseMembership(m)]) === 1 && actsIn(m));
  return (
    enterable.find((m) => m.company_id === sessionCompanyId) ??
    enterable.find((m) => m.is_main === 1) ??
    (enterable.length === 1 ? enterable[0]! : null)
  );
}

/** What the user record reads of the session: the company it works in, and the grant it acts under. */
export type RecordSession = Pick<SessionRow, 'token_hash' | 'current_company_id' | 'acting_grant_id'> &
  Partial<Pick<SessionRow, 'support_operator_id' | 'support_writable' | 'expires_at' | 'provider_mfa_company_id'>>;

/**
 * The grant the session acts under, read now (authority/ decides, grants/service.ts gives its modules); null when
 * it acts for no one. A grant that ended ends the acting here, on the next call: the session goes back to the
 * person's own company.
 */
async function actingOf(db: D1Database, asker: Asker, session: RecordSession, at: number, lang: Lang): Promise<ActingChoice | null> {
  if (!session.acting_grant_id) return null;
  try {
    return await actingNow(db, asker, session.acting_grant_id, at, lang);
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code !== ERR.ACTING_ENDED) throw error;
    await endSessionActing(db, session.token_hash);
    return null;
  }
}

/** `memberships`: the person's companies when the call read them already (with its session: account/routes.ts). */
export async function userRecord(db: D1Database, user: UserRow, session: RecordSession, lang: Lang, at: number, memberships?: MembershipRow[]): Promise<MeAnswer> {
  const sessionCompanyId = session.current_company_id;
  // The two-step rule as this session sees it (authority/db.ts Asker).
  const asker: Asker = { userId: user.id, mfaCompanyId: session.provider_mfa_company_id ?? null };
  const acting = await actingOf(db, asker, session, at, lang);
  const supportView = session.support_operator_id ? await supportViewOf(db, { support_operator_id: session.support_operator_id, support_writable: session.support_writable ?? 0, expires_at: session.expires_at ?? at }) : null;
  const phone = phoneParts(user.phone_e164);
  const country = user.country_id ? findCountry(user.country_id) : undefined;
  const phoneCountry = phone?.region ? findCountry(phone.region) : undefined;
  memberships ??= await membershipsOfUser(db, asker);
  const chosen = companyInUse(memberships, sessionCompanyId);
  const main = memberships.find((m) => m.is_main === 1);
  const [standing, granted, adminName] = chosen
    ? await Promise.all([standingIn(db, chosen.company_id, asker), grantsOf(db, chosen.company_id, user.id), administratorName(db, chosen.company_id)])
    : [null, [], null];
  // Asked again with the modules' reads: a rule turned on in between leaves no company in use either.
  const company = standing?.inside ? chosen : null;
  const member = standing?.inside ? standing.member : null;
  return {
    userId: user.id,
    username: user.real_name || user.login_name,
    realName: user.real_name,
    identity: user.identity,
    givenName: givenNameOf(user.real_name),
    loginName: user.login_name,
    account: user.login_name || user.phone_e164 || user.email || user.us_id || user.id,
    registerMobile: phone?.mobile ?? null,
    userPhoneCode: phone?.code ?? null,
    userPhoneCodeValue: phoneCountry?.id ?? null,
    businessEmails: user.email,
    passwordVersion: user.password_version,
    source: user.source,
    countryId: user.country_id,
    countryName: country ? (lang === 'zh' ? country.nameCn : country.name) : user.country_name,
    birthday: user.birthday,
    sex: user.sex,
    photo: user.photo_file_id ? fileUrl(user.photo_file_id) : null,
    dateCreate: user.created_at,
    accountId: company?.company_id ?? null,
    groupId: company?.type ?? null,
    mainAccountId: main?.company_id ?? null,
    superAdmin: member?.role === 'administrator',
    superAdminName: company ? adminName : null,
    roles: member ? [member.role] : [],
    // While acting, the modules are the person's in their company within the grant's (grants/service.ts).
    authoriseList: acting && company?.company_id === acting.agentCompanyId ? acting.modules : company && member ? modulesOfMember(company.type, member, granted, lang) : [],
    hireDate: member?.hire_time ?? null,
    actingFor:
      acting && company?.company_id === acting.agentCompanyId
        ? { grantId: acting.grantId, principal: acting.principal, vessels: acting.vessels, ports: acting.ports, level: acting.level, until: acting.until }
        : null,
    supportView,
  };
}
