import type { Lang } from '../../../src/lib/lang';
import {
  COMPANY_TYPE_DB,
  companyFormProblems,
  companyNameKey,
  companyTypeFromDb,
  fileUrl,
  FILLABLE_STATUSES,
  UPLOAD_LIMITS,
  VERIFICATION_STATUS_DB,
  verificationStatusFromDb,
  type CompanyDetailAnswer,
  type CompanyForm,
  type CompanyJoinAnswer,
  type CompanyJoinRequest,
  type CompanyMembersAnswer,
  type InvitationNameAnswer,
  type MemberDecisionAnswer,
  type UploadedFile,
  type UploadKind,
} from '../../../src/schemas/onboarding';
import { auditStatement } from '../audit/db';
import { answerPendingJoin, clearMainCompany, companyById, companyByInvitationCode, insertCompany, insertStaffJoin, withdrawInvitationAttempt, membersOfCompany, membershipsOfUser, nameTaken, setInvitationCode, setMainCompany, updateCompany, type CompanyFields, type CompanyRow, type CompanyWrite, type MemberListRow } from './db';
import { memberOf, type MemberRow } from '../authority/db';
import { filesByIds, filesOfCompany, type FileRow } from '../files/db';
import { cappedInsert } from '../identity/db/limits';
import { GatewayError } from '../errors';
import { findCountry, phoneCodeList } from '../places/countries';
import { grantsOfCompany } from './members-db';
import { contactPhoneNumber } from '../identity/sign-in-names';
import { newInvitationCode, normaliseInvitationCode } from './invitations';
import { accountSizeOf, asLoginCaseMembership } from './login-case';
import { findPort } from '../places/ports';
import { isImageContentType } from '../files/service';
import { moduleName, modulesOfType } from './modules';
import { ERR } from '../../../src/schemas/error-codes';
import { checkImoCompanyNumber, checkUscc } from '../../../src/schemas/registry-numbers';
import { reviewReasonText } from '../../../src/schemas/review-outcome';
import { companyAuthority, outsideByTwoStep, type CompanyNeed } from '../authority/service';
import { emitEvent } from '../events/db';
import type { Asker } from '../authority/db';

/**
 * Companies of onboarding: create and fill (administrator form), detail, invitation name look-up, join (staff
 * form), invitation regeneration, members and their approval, main enterprise.
 *
 * - A new company is 'approving'; its creator is its administrator with an active membership, so the sign-in
 *   sends them to "waiting for verification" until the platform verifies the company.
 * - One company per name and type, compared by companyNameKey (NFKC and case folding) under a unique index.
 * - A staff join is role 'staff', status 'pending' until the administrator approves; a 'rejected' person stays
 *   rejected (CO0011): re-admission is the administrator's call. Approve or decline happens once (CO0016 for
 *   the opposite answer afterwards).
 * - Invitation codes cannot be guessed at speed: every code tried is first recorded under caps per account and
 *   per client network (CO0017), and the record is withdrawn when the code was right.
 */

/** Who asks, as the route knows it. */
export interface Caller extends Asker {
  db: D1Database;
  /** The client network (clientIp). */
  ip: string;
  now: number;
  /** The language of the request (names of modules). */
  lang: Lang;
}

/** Wrong invitation codes per account and per client network within INVITATION_WINDOW_MS. */
export const INVITATION_WINDOW_MS = 60 * 60 * 1000;
export const INVITATION_ACCOUNT_CAP = 20;
export const INVITATION_NETWORK_CAP = 30;

/** Statuses in which nobody may join. */
const CLOSED_STATUSES = ['blocked', 'expired'];

/**
 * The caller's active membership, or CO0009 for a company they have no part in (no existence leak); a member
 * the company's two-step rule keeps out gets MF0021 (authority/service.ts decides).
 */
async function requireAuthority(caller: Caller, companyId: string, need: CompanyNeed): Promise<{ company: CompanyRow; member: MemberRow }> {
  const member = await companyAuthority(caller.db, caller, companyId, need);
  const company = await companyById(caller.db, companyId);
  if (!company) throw new GatewayError(ERR.COMPANY_NOT_FOUND);
  return { company, member };
}

// ---------------------------------------------------------------------------------------------------------
// Create and fill
// ---------------------------------------------------------------------------------------------------------

/**
 * The form's files: id → what it is for; a file named twice is CO0006. The registry evidence is an overseas
 * company's only (`overseas`): a mainland company's is not attached.
 */
function filesOfForm(form: CompanyForm, overseas: boolean): Map<string, UploadKind> {
  const files = new Map<string, UploadKind>();
  const wanted: [string | undefined, UploadKind][] = [
    ...form.corporateCharter.map((id): [string, UploadKind] => [id, 'licence']),
    [form.oilSupplyGtc, 'gtc'],
    [form.companyLogo, 'logo'],
    ...(overseas ? (form.registryEvidence ?? []) : []).map((id): [string, UploadKind] => [id, 'registryEvidence']),
  ];
  for (const [id, purpose] of wanted) {
    if (!id) continue;
    if (files.has(id)) throw new GatewayError(ERR.FILE_UNUSABLE, { ids: [id] });
    files.set(id, purpose);
  }
  return files;
}

/**
 * Every rule of the administrator form beyond the schema: port and GTC by type, phone, country and port from
 * their lists, files that are the caller's own unattached uploads (or, on fill, this company's), a logo that is
 * an image, and the company's storage cap. Returns the company write.
 */
async function checkForm(caller: Caller, form: CompanyForm, companyId: string, existing: boolean): Promise<CompanyWrite> {
  const problem = companyFormProblems(form)[0];
  if (problem) throw new GatewayError(problem.code, { path: problem.path });
  const contactPhone = contactPhoneNumber(form.phoneCode, form.contactTel);
  const country = findCountry(form.countryId);
  if (!country) throw new GatewayError(ERR.COUNTRY_NOT_LISTED, { path: 'countryId' });
  const overseas = country.id !== 'CN';
  const socialCredit = overseas ? form.socialCredit : mainlandCreditCode(form.socialCredit);
  // An overseas company's registry numbers (issue 42); a mainland company's are ignored, not stored.
  const imoNumber = overseas ? imoCompanyNumber(form.imoCompanyNumber) : null;
  const port = form.portId ? findPort(form.portId) : null;
  if (port === undefined) throw new GatewayError(ERR.PORT_NOT_LISTED, { path: 'portId' });

  const files = filesOfForm(form, overseas);
  const rows = await filesByIds(caller.db, [...files.keys()]);
  const usable = (row: FileRow) => (row.company_id === null && row.owner_user_id === caller.userId) || (existing && row.company_id === companyId);
  const bad = [...files.keys()].filter((id) => !rows.some((row) => row.id === id && usable(row)));
  if (bad.length) throw new GatewayError(ERR.FILE_UNUSABLE, { ids: bad });
  const logo = rows.find((row) => row.id === form.companyLogo);
  if (logo && !isImageContentType(logo.content_type)) throw new GatewayError(ERR.LOGO_NOT_IMAGE, { path: 'companyLogo' });
  // After the write the company holds exactly the form's files.
  if (rows.reduce((total, row) => total + row.size, 0) > UPLOAD_LIMITS.maxCompanyBytes) throw new GatewayError(ERR.COMPANY_FILES_TOO_LARGE);

  const fields: CompanyFields = {
    name_en: form.companyNameEn,
    name_cn: form.companyNameCn ?? null,
    name_key: companyNameKey(form.companyNameEn),
    type: COMPANY_TYPE_DB[form.companyType],
    // Sending the form (again) puts the company in the verification queue.
    status: VERIFICATION_STATUS_DB.approving,
    country_id: country.id,
    // The English name from the list (the client's text is not trusted); clients show nameCn by countryId.
    country_name: country.name,
    contact_name: form.contactName,
    contact_phone: contactPhone,
    port_id: port?.id ?? null,
    port_name: port?.name ?? null,
    port_code: port?.code ?? null,
    social_credit: socialCredit,
    contact_email: form.contactEmail,
    imo_company_number: imoNumber,
    national_registry_number: overseas ? (form.nationalRegistryNumber ?? null) : null,
    lang: caller.lang ?? 'zh',
  };
  return { companyId, userId: caller.userId, fields, files, now: caller.now };
}

/**
 * A mainland company's credit code is a unified social credit code (GB 32100-2015): refused unless its check
 * character fits (RG0001, with the one that does) and it has 18 characters of the alphabet (RG0002); stored as
 * normalised (upper case, no spaces). The organisation code inside it is only a warning, which the form shows.
 */
export function mainlandCreditCode(text: string): string {
  const verdict = checkUscc(text);
  if (verdict.ok) return verdict.code;
  if (verdict.problem === 'checkCharacter') throw new GatewayError(ERR.USCC_CHECK_CHARACTER_WRONG, { path: 'socialCredit', expected: verdict.expected });
  throw new GatewayError(ERR.USCC_MALFORMED, { path: 'socialCredit' });
}

/**
 * An overseas company's IMO company number (issue 42), or null for none (absent, empty or spaces): 7 digits (RG0007)
 * whose last is the check digit of the first six (RG0004, with the one that fits); stored without spaces or `IMO`.
 */
export function imoCompanyNumber(text: string | null | undefined, path = 'imoCompanyNumber'): string | null {
  if (!text?.trim()) return null;
  const verdict = checkImoCompanyNumber(text);
  if (verdict.ok) return verdict.number;
  if (verdict.problem === 'checkDigit') throw new GatewayError(ERR.IMO_COMPANY_NUMBER_INVALID, { path, expected: verdict.expected });
  throw new GatewayError(ERR.IMO_COMPANY_NUMBER_MALFORMED, { path });
}

/** Why a guarded company write changed nothing: the name is taken (CO0001), or else a file went elsewhere. */
async function refusedWrite(caller: Caller, write: CompanyWrite): Promise<GatewayError> {
  if (await nameTaken(caller.db, write.fields.name_key, write.fields.type, write.companyId)) return new GatewayError(ERR.COMPANY_ALREADY_EXISTS);
  return new GatewayError(ERR.FILE_UNUSABLE);
}

export async function createCompany(caller: Caller, form: CompanyForm): Promise<{ companyId: string }> {
  const write = await checkForm(caller, form, crypto.randomUUID(), false);
  if (!(await insertCompany(caller.db, write, newInvitationCode()))) throw await refusedWrite(caller, write);
  return { companyId: write.companyId };
}

/** Replaces the form of a company awaiting verification or more information; the files left out are deleted. */
export async function fillCompany(caller: Caller, uploads: R2Bucket, form: CompanyForm & { companyId: string }): Promise<{ companyId: string }> {
  const { company } = await requireAuthority(caller, form.companyId, 'manage');
  const fillable = FILLABLE_STATUSES.map((s) => VERIFICATION_STATUS_DB[s]);
  if (!fillable.includes(company.status)) throw new GatewayError(ERR.COMPANY_NOT_EDITABLE);
  const write = await checkForm(caller, form, company.id, true);
  const dropped = (await filesOfCompany(caller.db, company.id)).filter((row) => !write.files.has(row.id));
  if (!(await updateCompany(caller.db, write, fillable, dropped.map((row) => row.id)))) {
    const now = await companyById(caller.db, company.id);
    if (!now || !fillable.includes(now.status)) throw new GatewayError(ERR.COMPANY_NOT_EDITABLE);
    throw await refusedWrite(caller, write);
  }
  // Rows went first: a stray R2 object is harmless, a row without its bytes is not.
  if (dropped.length) await uploads.delete(dropped.map((row) => row.r2_key));
  return { companyId: company.id };
}

const uploaded = (row: FileRow): UploadedFile => ({ id: row.id, url: fileUrl(row.id), extension: row.extension, originName: row.origin_name });

/** '+8613800138000' → { code: '+86', national: '13800138000' } (the phone-code picker's parts). */
function splitE164(e164: string): { code: string; national: string } | null {
  // The longest calling code from the phone-code list that prefixes the number.
  const codes = [...new Set(phoneCodeList().map((item) => item.phoneCode))].sort((a, b) => b.length - a.length);
  const code = codes.find((prefix) => e164.startsWith(prefix));
  return code ? { code, national: e164.slice(code.length) } : null;
}

/** A company's names, type, country and contact as the administrator's detail and the operator's review both answer them. */
export function companyShown(company: CompanyRow) {
  return {
    companyNameEn: company.name_en,
    companyNameCn: company.name_cn,
    companyType: companyTypeFromDb(company.type),
    countryId: company.country_id,
    countryName: company.country_name,
    contactName: company.contact_name,
  };
}

export async function companyDetail(caller: Caller, companyId: string): Promise<CompanyDetailAnswer> {
  const { company, member } = await requireAuthority(caller, companyId, 'act');
  const files = await filesOfCompany(caller.db, company.id);
  const phone = company.contact_phone ? splitE164(company.contact_phone) : null;
  return {
    companyId: company.id,
    status: verificationStatusFromDb(company.status),
    role: member.role,
    ...companyShown(company),
    contactTel: phone?.national ?? null,
    phoneCode: phone?.code ?? null,
    portId: company.port_id,
    portName: company.port_name,
    portCode: company.port_code,
    socialCredit: company.social_credit,
    contactEmail: company.contact_email,
    corporateCharter: files.filter((f) => f.purpose === 'licence').map(uploaded),
    oilSupplyGtc: files.filter((f) => f.purpose === 'gtc').map(uploaded)[0] ?? null,
    companyLogo: files.filter((f) => f.purpose === 'logo').map(uploaded)[0] ?? null,
    imoCompanyNumber: company.imo_company_number,
    nationalRegistryNumber: company.national_registry_number,
    registryEvidence: files.filter((f) => f.purpose === 'registryEvidence').map(uploaded),
    review: {
      reason: company.review_reason,
      note: company.review_note,
      reviewedAt: company.reviewed_at,
      text: reviewReasonText(caller.lang, company.review_reason, company.review_note),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Invitations
// ---------------------------------------------------------------------------------------------------------

/**
 * Looks up the company of an invitation code, paying for the look-up first: the attempt is recorded under the
 * caps (CO0017 past either) before the code is compared, so a burst of guesses in parallel gets no more answers
 * than guesses one by one. A right code withdraws the record; only wrong codes count.
 */
async function companyOfGuessedCode(who: { db: D1Database; userId: string | null; ip: string; now: number }, typed: string): Promise<{ code: string; company: CompanyRow }> {
  const since = who.now - INVITATION_WINDOW_MS;
  const attempt = await cappedInsert(who.db, {
    table: 'invitation_attempts',
    row: { user_id: who.userId, ip: who.ip, created_at: who.now },
    caps: [
      ...(who.userId ? [{ where: { user_id: who.userId }, since, max: INVITATION_ACCOUNT_CAP, code: ERR.INVITATION_GUESSES_CAPPED }] : []),
      { where: { ip: who.ip }, since, max: INVITATION_NETWORK_CAP, code: ERR.INVITATION_GUESSES_CAPPED },
    ],
  });
  const code = normaliseInvitationCode(typed);
  const company = code ? await companyByInvitationCode(who.db, code) : null;
  if (!code || !company) throw new GatewayError(ERR.INVITATION_CODE_UNKNOWN);
  await withdrawInvitationAttempt(who.db, attempt);
  return { code, company };
}

/** The staff form fills the company name from the invitation code; no session needed. */
export async function invitationName(who: { db: D1Database; ip: string; now: number }, typed: string): Promise<InvitationNameAnswer> {
  const { company } = await companyOfGuessedCode({ ...who, userId: null }, typed);
  return { companyNameEn: company.name_en, companyNameCn: company.name_cn };
}

export async function joinCompany(caller: Caller, form: CompanyJoinRequest): Promise<CompanyJoinAnswer> {
  const { code, company } = await companyOfGuessedCode(caller, form.companyId);
  if (CLOSED_STATUSES.includes(company.status)) throw new GatewayError(ERR.COMPANY_CLOSED_TO_MEMBERS);
  const added = await insertStaffJoin(caller.db, {
    companyId: company.id,
    code,
    userId: caller.userId,
    nickName: form.nickName,
    personalEmail: form.personalEmail,
    contactPhone: contactPhoneNumber(form.phoneCode, form.contactTel),
    hireTime: form.hireTime ?? null,
    now: caller.now,
  });
  if (!added) {
    if (await memberOf(caller.db, company.id, caller.userId)) throw new GatewayError(ERR.ALREADY_MEMBER_OR_APPLIED);
    // The code was regenerated or the company closed between the look-up and the insert.
    throw new GatewayError(ERR.INVITATION_CODE_UNKNOWN);
  }
  return { companyId: company.id, companyNameEn: company.name_en, role: 'staff', status: 'pending' };
}

/** A new invitation code for the company (the old one stops working); a clash with another company's code draws again. */
export async function regenerateInvitation(caller: Caller, companyId: string): Promise<{ invitationCode: string }> {
  const { company } = await requireAuthority(caller, companyId, 'manage');
  for (let attempt = 0; attempt < 4; attempt++) {
    const invitationCode = newInvitationCode();
    if (await setInvitationCode(caller.db, company.id, invitationCode, caller.now)) return { invitationCode };
  }
  throw new Error('four invitation codes in a row were taken');
}

// ---------------------------------------------------------------------------------------------------------
// Members and the main enterprise
// ---------------------------------------------------------------------------------------------------------

/** A member as both the administrator's list and the operator's review show them: the staff form's name and contacts first. */
export function memberShown(m: MemberListRow) {
  // An administrator's membership row carries the company form's contact person; the row shows the person
  // themselves (their profile's name and sign-in phone), as staff rows show what the person typed (issue 33).
  const own = m.role === 'administrator';
  return {
    userId: m.user_id,
    name: (own ? m.real_name || m.nick_name : m.nick_name || m.real_name) || m.login_name,
    phone: own ? (m.phone_e164 ?? m.contact_phone) : (m.contact_phone ?? m.phone_e164),
    email: own ? (m.email ?? m.personal_email) : (m.personal_email ?? m.email),
    role: m.role,
    status: m.status,
    joinedAt: m.joined_at,
  };
}

export async function companyMembers(caller: Caller, companyId: string): Promise<CompanyMembersAnswer> {
  const { company } = await requireAuthority(caller, companyId, 'manage');
  const [rows, grants] = await Promise.all([membersOfCompany(caller.db, company.id), grantsOfCompany(caller.db, company.id)]);
  const catalogue = modulesOfType(company.type);
  return {
    companyId: company.id,
    invitationCode: company.invitation_code,
    modules: catalogue.map((entry) => moduleName(entry, caller.lang)),
    members: rows.map((m) => ({
      ...memberShown(m),
      hireTime: m.hire_time,
      // Grants of modules the company's type still has (a type changed by a fill hides the others).
      modules: (grants.get(m.user_id) ?? []).filter((key) => catalogue.some((entry) => entry.key === key)),
    })),
  };
}

/** Approve ('active') or decline ('rejected') a staff member's pending join; a repeat of the same answer succeeds. */
export async function answerJoin(caller: Caller, request: { companyId: string; userId: string }, status: 'active' | 'rejected'): Promise<MemberDecisionAnswer> {
  const { company } = await requireAuthority(caller, request.companyId, 'manage');
  // The administrator decided about this person: a row of the person's activity as well as the company's.
  const decided = auditStatement(caller.db, {
    at: caller.now,
    actor: { kind: 'user', id: caller.userId },
    action: status === 'active' ? 'member.approved' : 'member.rejected',
    target: { kind: 'user', id: request.userId },
    network: caller.ip,
    detail: { companyId: company.id },
  }, { ifChanged: true });
  const approved = emitEvent(caller.db, { type: 'member.approved', at: caller.now, companyId: company.id, data: { companyId: company.id, userId: request.userId } }, { ifChanged: true });
  if (!(await answerPendingJoin(caller.db, company.id, request.userId, status, status === 'active' ? [decided, approved] : [decided]))) {
    const member = await memberOf(caller.db, company.id, request.userId);
    if (!member || member.role !== 'staff') throw new GatewayError(ERR.JOIN_REQUEST_NOT_FOUND);
    if (member.status !== status) throw new GatewayError(ERR.JOIN_REQUEST_ANSWERED, { status: member.status });
  }
  return { companyId: company.id, userId: request.userId, status };
}

/** The main enterprise must be one the person can enter now: the same rule as isMaster at sign-in. */
export async function chooseMainCompany(caller: Caller, companyId: string): Promise<void> {
  const membership = (await membershipsOfUser(caller.db, caller)).find((m) => m.company_id === companyId);
  if (!membership || accountSizeOf([asLoginCaseMembership(membership)]) !== 1) throw new GatewayError(ERR.MAIN_COMPANY_NOT_ENTERABLE);
  if (outsideByTwoStep(membership)) throw new GatewayError(ERR.TWO_STEP_REQUIRED_BY_COMPANY);
  await setMainCompany(caller.db, caller.userId, companyId);
}

export const clearMainChoice = (caller: Caller) => clearMainCompany(caller.db, caller.userId);
