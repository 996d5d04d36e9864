import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  clearMainAccountRequest,
  COMPANY_TYPE_DB,
  companyCreateRequest,
  companyDetailQuery,
  companyFillRequest,
  companyFormProblems,
  companyJoinRequest,
  companyMembersQuery,
  companyTypeFromDb,
  fileUrl,
  FILLABLE_STATUSES,
  invitationNameRequest,
  invitationRegenerateRequest,
  memberDecisionRequest,
  setMainAccountRequest,
  VERIFICATION_STATUS_DB,
  verificationStatusFromDb,
  type CompanyDetailAnswer,
  type CompanyForm,
  type CompanyJoinAnswer,
  type CompanyMembersAnswer,
  type InvitationNameAnswer,
  type MemberDecisionAnswer,
  type UploadedFile,
  type UploadKind,
} from '../../../src/schemas/onboarding';
import type { WorkerEnv } from '../../env';
import { readJson } from '../body';
import { companyById, companyByInvitationCode, memberOf, membersOfCompany, type CompanyRow, type MemberRow } from '../db/company-admin';
import { asLoginCaseMembership, membershipsOfUser } from '../db/companies';
import { filesByIds, filesOfCompany, type FileRow } from '../db/files';
import { isUniqueViolation } from '../db/users';
import { GatewayError, ok } from '../errors';
import { now } from '../services/clock';
import { findCountry, phoneCodeList } from '../services/countries';
import { phoneRecipient } from '../services/identity';
import { newInvitationCode, normaliseInvitationCode } from '../services/invitations';
import { accountSizeOf } from '../services/login-case';
import { findPort } from '../services/ports';
import { requireSession, type SessionVariables } from '../services/sessions';
import { isImageContentType } from '../services/uploads';

/**
 * Companies of onboarding (issue 5; spec 3, 5, 6): create and fill (administrator form), detail, invitation
 * name lookup, join (staff form), invitation regeneration, members, main enterprise.
 *
 * Decisions:
 * - A new company is 'approving'; its creator is its administrator with an active membership (spec 6), so
 *   login case 4 applies until the platform verifies the company.
 * - A staff join is role 'staff', status 'pending' until the administrator approves (login case 5); one row
 *   per (company, user) makes parallel joins of one person a single membership. A 'rejected' person stays
 *   rejected (CO0011): re-admission is the administrator's call.
 * - The administrator answers a pending join with approve ('active') or decline ('rejected'). The change is
 *   one conditional UPDATE from 'pending', so two clicks (or two administrators) at once change it once; a
 *   repeat of the same answer succeeds, the opposite answer is CO0016.
 * - Every write is one D1 batch. Guards inside the batch (a NOT NULL column fed NULL when a condition fails)
 *   abort it when a file was attached by a parallel request in between, so nothing is half-written.
 */

type CompanyEnv = { Bindings: WorkerEnv; Variables: SessionVariables };

const ADMIN_ONLY = 'CO0008';
/** Statuses in which nobody may join. */
const CLOSED_STATUSES = ['blocked', 'expired'];

function readQuery<T extends z.core.$ZodType>(c: Context, schema: T): z.output<T> {
  const result = z.safeParse(schema, c.req.query());
  if (!result.success) throw new GatewayError('GW0400', result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  return result.data;
}

/** The caller's membership, or CO0009 for a company they have no part in (no existence leak). */
async function requireMember(c: Context<CompanyEnv>, companyId: string): Promise<{ company: CompanyRow; member: MemberRow }> {
  const member = await memberOf(c.env.DB, companyId, c.var.user.id);
  const company = member && member.status === 'active' ? await companyById(c.env.DB, companyId) : null;
  if (!member || !company) throw new GatewayError('CO0009');
  return { company, member };
}

async function requireAdministrator(c: Context<CompanyEnv>, companyId: string) {
  const found = await requireMember(c, companyId);
  if (found.member.role !== 'administrator') throw new GatewayError(ADMIN_ONLY);
  return found;
}

interface CheckedForm {
  form: CompanyForm;
  contactPhone: string;
  countryName: string;
  port: { id: string; name: string; code: string } | null;
  /** File id → what it is for. */
  files: Map<string, UploadKind>;
  rows: FileRow[];
}

/**
 * Every rule of the administrator form beyond the schema: port and GTC by type, phone, country and port
 * from their lists, and files that are the caller's own unattached uploads (or, on fill, this company's).
 */
async function checkForm(c: Context<CompanyEnv>, form: CompanyForm, companyId: string | null): Promise<CheckedForm> {
  const problem = companyFormProblems(form)[0];
  if (problem) throw new GatewayError(problem.code, { path: problem.path });
  const contactPhone = phoneRecipient(form.phoneCode, form.contactTel);
  const country = findCountry(form.countryId);
  if (!country) throw new GatewayError('CO0004', { path: 'countryId' });
  let port: CheckedForm['port'] = null;
  if (form.portId) {
    const found = findPort(form.portId);
    if (!found) throw new GatewayError('CO0005', { path: 'portId' });
    port = { id: found.id, name: found.name, code: found.code };
  }

  const files = new Map<string, UploadKind>();
  const wanted: [string | undefined, UploadKind][] = [
    ...form.corporateCharter.map((id): [string, UploadKind] => [id, 'licence']),
    [form.oilSupplyGtc, 'gtc'],
    [form.companyLogo, 'logo'],
  ];
  for (const [id, purpose] of wanted) {
    if (!id) continue;
    if (files.has(id)) throw new GatewayError('CO0006', { ids: [id] });
    files.set(id, purpose);
  }
  const rows = await filesByIds(c.env.DB, [...files.keys()]);
  const usable = (row: FileRow) =>
    (row.company_id === null && row.owner_user_id === c.var.user.id) || (companyId !== null && row.company_id === companyId);
  const bad = [...files.keys()].filter((id) => !rows.some((row) => row.id === id && usable(row)));
  if (bad.length) throw new GatewayError('CO0006', { ids: bad });
  const logo = rows.find((row) => row.id === form.companyLogo);
  if (logo && !isImageContentType(logo.content_type)) throw new GatewayError('CO0007', { path: 'companyLogo' });
  // The English name from the list (the client's text is not trusted); clients show nameCn by countryId.
  return { form, contactPhone, countryName: country.name, port, files, rows };
}

/** Statements that attach the form's files to `companyId`, and a guard that aborts the batch unless all were attached. */
function attachStatements(db: D1Database, companyId: string, userId: string, files: Map<string, UploadKind>): D1PreparedStatement[] {
  const statements = [...files].map(([id, purpose]) =>
    db
      .prepare('UPDATE files SET company_id = ?, purpose = ? WHERE id = ? AND (company_id = ? OR (company_id IS NULL AND owner_user_id = ?))')
      .bind(companyId, purpose, id, companyId, userId),
  );
  const ids = [...files.keys()];
  // companies.created_at is NOT NULL: setting it to NULL when a file went elsewhere makes the whole batch fail.
  statements.push(
    db
      .prepare(
        `UPDATE companies SET created_at = CASE
           WHEN (SELECT count(*) FROM files WHERE company_id = ? AND id IN (${ids.map(() => '?').join(', ')})) = ? THEN created_at
           ELSE NULL END
         WHERE id = ?`,
      )
      .bind(companyId, ...ids, ids.length, companyId),
  );
  return statements;
}

/** D1 errors of a company write → the envelope's codes. */
function companyWriteError(error: unknown): unknown {
  if (isUniqueViolation(error) && /name_en|name_type/i.test((error as Error).message)) return new GatewayError('CO0001');
  if (error instanceof Error && /NOT NULL constraint failed: companies\.created_at/i.test(error.message)) return new GatewayError('CO0006');
  return error;
}

const uploaded = (row: FileRow): UploadedFile => ({ id: row.id, url: fileUrl(row.id), extension: row.extension, originName: row.origin_name });

export const companyRoutes = new Hono<CompanyEnv>()
  // The staff form fills the company name from the invitation code; no session needed (spec 3).
  .post('/agg-web/user/selectCompanyNameByCompanyId', async (c) => {
    const { companyId } = await readJson(c, invitationNameRequest);
    const code = normaliseInvitationCode(companyId);
    const company = code ? await companyByInvitationCode(c.env.DB, code) : null;
    if (!company) throw new GatewayError('CO0010');
    const answer: InvitationNameAnswer = { companyNameEn: company.name_en, companyNameCn: company.name_cn };
    return ok(c, answer);
  })

  .use('/agg-web/company/*', requireSession)
  .use('/agg-web/user/setMainAccount', requireSession)
  .use('/agg-web/user/clearMainAccount', requireSession)

  .post('/agg-web/company/create', async (c) => {
    const db = c.env.DB;
    const checked = await checkForm(c, await readJson(c, companyCreateRequest), null);
    const { form } = checked;
    const userId = c.var.user.id;
    const at = now(c);
    const companyId = crypto.randomUUID();
    const statements = [
      db
        .prepare(
          `INSERT INTO companies (id, name_en, name_cn, type, status, invitation_code, created_by, created_at, country_id, country_name,
             contact_name, contact_phone, port_id, port_name, port_code, social_credit, contact_email, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          companyId,
          form.companyNameEn,
          form.companyNameCn ?? null,
          COMPANY_TYPE_DB[form.companyType],
          VERIFICATION_STATUS_DB.approving,
          newInvitationCode(),
          userId,
          at,
          form.countryId,
          checked.countryName,
          form.contactName,
          checked.contactPhone,
          checked.port?.id ?? null,
          checked.port?.name ?? null,
          checked.port?.code ?? null,
          form.socialCredit,
          form.contactEmail,
          at,
        ),
      // Spec 6: the first member is the administrator.
      db
        .prepare(
          `INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at, nick_name, personal_email, contact_phone)
           VALUES (?, ?, 'administrator', 'active', 0, ?, ?, ?, ?)`,
        )
        .bind(companyId, userId, at, form.contactName, form.contactEmail, checked.contactPhone),
      ...attachStatements(db, companyId, userId, checked.files),
      db.prepare('UPDATE users SET user_type = 2 WHERE id = ?').bind(userId),
    ];
    try {
      await db.batch(statements);
    } catch (error) {
      throw companyWriteError(error);
    }
    return ok(c, { companyId });
  })

  .post('/agg-web/company/fill', async (c) => {
    const db = c.env.DB;
    const body = await readJson(c, companyFillRequest);
    const { company } = await requireAdministrator(c, body.companyId);
    const fillable = FILLABLE_STATUSES.map((s) => VERIFICATION_STATUS_DB[s]);
    if (!fillable.includes(company.status)) throw new GatewayError('CO0012');
    const checked = await checkForm(c, body, company.id);
    const { form } = checked;
    const at = now(c);
    // Files of the company that the new form leaves out are removed (rows in the batch, bytes after it).
    const dropped = (await filesOfCompany(db, company.id)).filter((row) => !checked.files.has(row.id));
    const statements = [
      // Sending the requested information puts the company back in the queue.
      db
        .prepare(
          `UPDATE companies SET name_en = ?, name_cn = ?, type = ?, status = ?, country_id = ?, country_name = ?, contact_name = ?,
             contact_phone = ?, port_id = ?, port_name = ?, port_code = ?, social_credit = ?, contact_email = ?, updated_at = ?
           WHERE id = ?`,
        )
        .bind(
          form.companyNameEn,
          form.companyNameCn ?? null,
          COMPANY_TYPE_DB[form.companyType],
          VERIFICATION_STATUS_DB.approving,
          form.countryId,
          checked.countryName,
          form.contactName,
          checked.contactPhone,
          checked.port?.id ?? null,
          checked.port?.name ?? null,
          checked.port?.code ?? null,
          form.socialCredit,
          form.contactEmail,
          at,
          company.id,
        ),
      ...dropped.map((row) => db.prepare('DELETE FROM files WHERE id = ? AND company_id = ?').bind(row.id, company.id)),
      ...attachStatements(db, company.id, c.var.user.id, checked.files),
    ];
    try {
      await db.batch(statements);
    } catch (error) {
      throw companyWriteError(error);
    }
    if (dropped.length) await c.env.UPLOADS.delete(dropped.map((row) => row.r2_key));
    return ok(c, { companyId: company.id });
  })

  .get('/agg-web/company/detail', async (c) => {
    const { companyId } = readQuery(c, companyDetailQuery);
    const { company, member } = await requireMember(c, companyId);
    const files = await filesOfCompany(c.env.DB, company.id);
    const phone = company.contact_phone ? splitE164(company.contact_phone) : null;
    const answer: CompanyDetailAnswer = {
      companyId: company.id,
      status: verificationStatusFromDb(company.status),
      role: member.role,
      companyNameEn: company.name_en,
      companyNameCn: company.name_cn,
      companyType: companyTypeFromDb(company.type),
      countryId: company.country_id,
      countryName: company.country_name,
      contactName: company.contact_name,
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
    };
    return ok(c, answer);
  })

  .post('/agg-web/company/join', async (c) => {
    const db = c.env.DB;
    const body = await readJson(c, companyJoinRequest);
    const code = normaliseInvitationCode(body.companyId);
    const company = code ? await companyByInvitationCode(db, code) : null;
    if (!code || !company) throw new GatewayError('CO0010');
    if (CLOSED_STATUSES.includes(company.status)) throw new GatewayError('CO0013');
    const contactPhone = phoneRecipient(body.phoneCode, body.contactTel);
    const userId = c.var.user.id;
    // The company is found by the code inside the INSERT: a code regenerated meanwhile inserts nothing.
    const [inserted] = await db.batch([
      db
        .prepare(
          `INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at, nick_name, personal_email, contact_phone, hire_time)
           SELECT id, ?, 'staff', 'pending', 0, ?, ?, ?, ?, ? FROM companies
           WHERE invitation_code = ? AND id = ? AND status NOT IN ('blocked', 'expired')
           ON CONFLICT (company_id, user_id) DO NOTHING`,
        )
        .bind(userId, now(c), body.nickName, body.personalEmail, contactPhone, body.hireTime ?? null, code, company.id),
      db.prepare('UPDATE users SET user_type = 2 WHERE id = ? AND user_type = 0').bind(userId),
    ]);
    if (!inserted?.meta.changes) {
      if (await memberOf(db, company.id, userId)) throw new GatewayError('CO0011');
      throw new GatewayError('CO0010');
    }
    const answer: CompanyJoinAnswer = { companyId: company.id, companyNameEn: company.name_en, role: 'staff', status: 'pending' };
    return ok(c, answer);
  })

  .post('/agg-web/company/invitation/regenerate', async (c) => {
    const { companyId } = await readJson(c, invitationRegenerateRequest);
    const { company } = await requireAdministrator(c, companyId);
    for (let attempt = 0; ; attempt++) {
      const invitationCode = newInvitationCode();
      try {
        await c.env.DB.prepare('UPDATE companies SET invitation_code = ?, updated_at = ? WHERE id = ?').bind(invitationCode, now(c), company.id).run();
        return ok(c, { invitationCode });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  })

  .get('/agg-web/company/members', async (c) => {
    const { companyId } = readQuery(c, companyMembersQuery);
    const { company } = await requireAdministrator(c, companyId);
    const rows = await membersOfCompany(c.env.DB, company.id);
    const answer: CompanyMembersAnswer = {
      companyId: company.id,
      invitationCode: company.invitation_code,
      members: rows.map((m) => ({
        userId: m.user_id,
        name: m.nick_name || m.real_name || m.login_name,
        phone: m.contact_phone ?? m.phone_e164,
        email: m.personal_email ?? m.email,
        role: m.role,
        status: m.status,
        joinedAt: m.joined_at,
        hireTime: m.hire_time,
      })),
    };
    return ok(c, answer);
  })

  .post('/agg-web/company/member/approve', (c) => answerJoin(c, 'active'))
  .post('/agg-web/company/member/decline', (c) => answerJoin(c, 'rejected'))

  // The main enterprise must be one the person can enter now: the same rule as isMaster at sign-in (routes/auth.ts).
  .post('/agg-web/user/setMainAccount', async (c) => {
    const { companyId } = await readJson(c, setMainAccountRequest);
    const db = c.env.DB;
    const userId = c.var.user.id;
    const membership = (await membershipsOfUser(db, userId)).find((m) => m.company_id === companyId);
    if (!membership || accountSizeOf([asLoginCaseMembership(membership)]) !== 1) throw new GatewayError('CO0014');
    await db.batch([
      db.prepare('UPDATE company_members SET is_main = 0 WHERE user_id = ? AND is_main = 1 AND company_id <> ?').bind(userId, companyId),
      db.prepare('UPDATE company_members SET is_main = 1 WHERE user_id = ? AND company_id = ?').bind(userId, companyId),
    ]);
    return ok(c, true);
  })

  .post('/agg-web/user/clearMainAccount', async (c) => {
    await readJson(c, clearMainAccountRequest);
    await c.env.DB.prepare('UPDATE company_members SET is_main = 0 WHERE user_id = ? AND is_main = 1').bind(c.var.user.id).run();
    return ok(c, true);
  });

/** Approve or decline a staff member's pending join (administrator of the company only). */
async function answerJoin(c: Context<CompanyEnv>, status: 'active' | 'rejected') {
  const { companyId, userId } = await readJson(c, memberDecisionRequest);
  const { company } = await requireAdministrator(c, companyId);
  const db = c.env.DB;
  const changed = await db
    .prepare("UPDATE company_members SET status = ? WHERE company_id = ? AND user_id = ? AND role = 'staff' AND status = 'pending'")
    .bind(status, company.id, userId)
    .run();
  if (!changed.meta.changes) {
    const member = await memberOf(db, company.id, userId);
    if (!member || member.role !== 'staff') throw new GatewayError('CO0015');
    if (member.status !== status) throw new GatewayError('CO0016', { status: member.status });
  }
  const answer: MemberDecisionAnswer = { companyId: company.id, userId, status };
  return ok(c, answer);
}

/** '+8613800138000' → { code: '+86', national: '13800138000' } (the phone-code picker's parts). */
function splitE164(e164: string): { code: string; national: string } | null {
  // The longest calling code from the phone-code list that prefixes the number.
  const codes = [...new Set(phoneCodeList().map((item) => item.phoneCode))].sort((a, b) => b.length - a.length);
  const code = codes.find((prefix) => e164.startsWith(prefix));
  return code ? { code, national: e164.slice(code.length) } : null;
}
