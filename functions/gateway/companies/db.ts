import { twoStepMissing, type Asker, type MemberRow, type MembershipRow } from '../authority/db';
import type { UploadKind } from '../../../src/schemas/onboarding';
import { emitEvent } from '../events/db';

/**
 * Companies, their members and the files attached to them (migrations 0003, 0005, 0101). Every write of a
 * company is one D1 batch that starts with a guarded company statement; the statements after it act only
 * while the company row carries that write's id (`write_id`), so a guard that fails leaves nothing half-made.
 */

export interface CompanyRow {
  id: string;
  name_en: string;
  name_cn: string | null;
  type: string;
  status: string;
  invitation_code: string | null;
  created_by: string | null;
  created_at: number;
  country_id: string | null;
  country_name: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  port_id: string | null;
  port_name: string | null;
  port_code: string | null;
  social_credit: string | null;
  contact_email: string | null;
  updated_at: number | null;
  /** Migration 0601 (issue 42): an overseas company's IMO company number and national registry number. */
  imo_company_number: string | null;
  national_registry_number: string | null;
  /** Migration 0150: the form's language and the last review decision (review/service.ts). */
  lang: 'zh' | 'en';
  review_reason: string | null;
  review_note: string | null;
  reviewed_at: number | null;
  status_before_block: string | null;
  /** The platform suspended the company's grants between companies (migrations/0410), with why. */
  grants_suspended_at?: number | null;
  grants_suspended_reason?: string | null;
}

export interface MemberListRow extends MemberRow {
  real_name: string;
  login_name: string;
  phone_e164: string | null;
  email: string | null;
}

// ---------------------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------------------

export async function companyById(db: D1Database, id: string): Promise<CompanyRow | null> {
  return db.prepare('SELECT * FROM companies WHERE id = ?').bind(id).first<CompanyRow>();
}

export async function companyByInvitationCode(db: D1Database, code: string): Promise<CompanyRow | null> {
  return db.prepare('SELECT * FROM companies WHERE invitation_code = ?').bind(code).first<CompanyRow>();
}

/** Whether another company of this type has the name key (`except` is the company being changed). */
export async function nameTaken(db: D1Database, nameKey: string, type: string, except: string): Promise<boolean> {
  const row = await db.prepare('SELECT 1 AS taken FROM companies WHERE name_key = ? AND type = ? AND id <> ?').bind(nameKey, type, except).first();
  return row !== null;
}

export async function membersOfCompany(db: D1Database, companyId: string): Promise<MemberListRow[]> {
  const { results } = await db
    .prepare(
      `SELECT m.*, u.real_name, u.login_name, u.phone_e164, u.email
       FROM company_members m JOIN users u ON u.id = m.user_id
       WHERE m.company_id = ?
       ORDER BY m.role = 'administrator' DESC, m.joined_at, m.user_id`,
    )
    .bind(companyId)
    .all<MemberListRow>();
  return results;
}

/** Every company the user belongs to or asked to join, oldest first. */
export async function membershipsOfUser(db: D1Database, asker: Asker): Promise<MembershipRow[]> {
  const { results } = await membershipsStatement(db, asker).all<MembershipRow>();
  return results;
}

/**
 * MembershipRow's columns, each with its SQL: one list for the rows and for the JSON form below. `mfaCompany` is the
 * SQL of the asking session's provider_mfa_company_id (authority/db.ts twoStepMissing).
 */
const membershipColumns = (mfaCompany: string): ReadonlyArray<readonly [keyof MembershipRow, string]> => [
  ['company_id', 'm.company_id'],
  ['name_en', 'c.name_en'],
  ['name_cn', 'c.name_cn'],
  ['type', 'c.type'],
  ['company_status', 'c.status'],
  ['role', 'm.role'],
  ['member_status', 'm.status'],
  ['is_main', 'm.is_main'],
  ['joined_at', 'm.joined_at'],
  ['review_reason', 'c.review_reason'],
  ['review_note', 'c.review_note'],
  ['reviewed_at', 'c.reviewed_at'],
  ['two_step_missing', twoStepMissing('m.company_id', 'm.user_id', mfaCompany)],
  // The company's device rules (issue 44), read where its two-step rule is read.
  ['confirm_new_devices', 'c.confirm_new_devices'],
  ['trust_forbidden', '(CASE WHEN c.require_two_step = 1 AND c.forbid_trusted_devices = 1 THEN 1 ELSE 0 END)'],
];
const MEMBERSHIPS_FROM = 'FROM company_members m JOIN companies c ON c.id = m.company_id';
const MEMBERSHIPS_ORDER = 'ORDER BY m.joined_at, c.name_en';

/** The SELECT of membershipsOfUser for the person who asks (the two-step rule as their session sees it). */
export function membershipsStatement(db: D1Database, asker: Asker): D1PreparedStatement {
  const columns = membershipColumns('?2').map(([name, sql]) => `${sql} AS ${name}`).join(', ');
  return db.prepare(`SELECT ${columns} ${MEMBERSHIPS_FROM} WHERE m.user_id = ?1 ${MEMBERSHIPS_ORDER}`).bind(asker.userId, asker.mfaCompanyId);
}

/**
 * The same rows as one JSON array, for the user whose id the SQL expression `userIdSql` gives (no `?`): a value
 * a signed-in call's session read selects with the session (sessions/service.ts), so it stays one statement.
 * Read it back with membershipsFromJson.
 */
export function membershipsJsonSql(userIdSql: string, mfaCompanySql: string): string {
  const fields = membershipColumns(mfaCompanySql).map(([name, sql]) => `'${name}', ${sql}`).join(', ');
  return `SELECT json_group_array(json_object(${fields}) ${MEMBERSHIPS_ORDER}) ${MEMBERSHIPS_FROM} WHERE m.user_id = ${userIdSql}`;
}

export const membershipsFromJson = (json: unknown): MembershipRow[] => JSON.parse(typeof json === 'string' ? json : '[]') as MembershipRow[];

// ---------------------------------------------------------------------------------------------------------
// The administrator form: create and fill
// ---------------------------------------------------------------------------------------------------------

/** The form's columns of a company, as the administrator form writes them. */
export interface CompanyFields {
  name_en: string;
  name_cn: string | null;
  /** companyNameKey(name_en): compared for one company per name and type. */
  name_key: string;
  type: string;
  status: string;
  country_id: string;
  country_name: string;
  contact_name: string;
  contact_phone: string;
  port_id: string | null;
  port_name: string | null;
  port_code: string | null;
  social_credit: string;
  contact_email: string;
  /** An overseas company's (issue 42); always null for a mainland company. */
  imo_company_number: string | null;
  national_registry_number: string | null;
  /** The language the form was sent in: review decisions are written to the administrator in it. */
  lang: 'zh' | 'en';
}

/** The one column list of the form, used by both the INSERT of create and the UPDATE of fill. */
const FORM_COLUMNS = [
  'name_en',
  'name_cn',
  'name_key',
  'type',
  'status',
  'country_id',
  'country_name',
  'contact_name',
  'contact_phone',
  'port_id',
  'port_name',
  'port_code',
  'social_credit',
  'contact_email',
  'imo_company_number',
  'national_registry_number',
  'lang',
] as const satisfies readonly (keyof CompanyFields)[];

export interface CompanyWrite {
  companyId: string;
  userId: string;
  fields: CompanyFields;
  /** File id → what it is for: every one must be this user's unattached upload or already this company's. */
  files: Map<string, UploadKind>;
  now: number;
}

/**
 * The guard every company write starts with, as SQL over ?1 (company id), ?2 (user id), ?3 (name key), ?4 (type)
 * and the file ids from ?5: no other company has this name and type, and every file is still usable here.
 */
function writeGuard(fileCount: number): string {
  const ids = Array.from({ length: fileCount }, (_, i) => `?${i + 5}`).join(', ');
  const filesUsable = fileCount
    ? `(SELECT COUNT(*) FROM files WHERE id IN (${ids}) AND (company_id = ?1 OR (company_id IS NULL AND owner_user_id = ?2))) = ${fileCount}`
    : '1 = 1';
  return `NOT EXISTS (SELECT 1 FROM companies WHERE name_key = ?3 AND type = ?4 AND id <> ?1) AND ${filesUsable}`;
}

/** The statements that follow the guarded one: they act only if the company row now carries `writeId`. */
function ifWritten(db: D1Database, sql: string, companyId: string, writeId: string, ...binds: unknown[]): D1PreparedStatement {
  return db
    .prepare(`${sql} AND EXISTS (SELECT 1 FROM companies WHERE id = ?1 AND write_id = ?2)`)
    .bind(companyId, writeId, ...binds);
}

/** Attaches the form's files to the company, each for its purpose. */
function attachFiles(db: D1Database, write: CompanyWrite, writeId: string): D1PreparedStatement[] {
  return [...write.files].map(([fileId, purpose]) =>
    ifWritten(db, 'UPDATE files SET company_id = ?1, purpose = ?4 WHERE id = ?3', write.companyId, writeId, fileId, purpose),
  );
}

/**
 * Creates the company with its administrator and files in one batch. Returns false, having written nothing,
 * when the name and type are taken or a file is no longer usable (the caller tells which).
 */
export async function insertCompany(db: D1Database, write: CompanyWrite, invitationCode: string): Promise<boolean> {
  const writeId = crypto.randomUUID();
  const { fields } = write;
  const columns = [...FORM_COLUMNS, 'id', 'invitation_code', 'created_by', 'created_at', 'updated_at', 'write_id'];
  const values = [...FORM_COLUMNS.map((c) => fields[c]), write.companyId, invitationCode, write.userId, write.now, write.now, writeId];
  const placeholders = values.map((_, i) => `?${i + 5 + write.files.size}`).join(', ');
  const [inserted] = await db.batch([
    db
      .prepare(`INSERT INTO companies (${columns.join(', ')}) SELECT ${placeholders} WHERE ${writeGuard(write.files.size)}`)
      .bind(write.companyId, write.userId, fields.name_key, fields.type, ...write.files.keys(), ...values),
    // The first member is the administrator, with the form's contact details.
    ifWritten(
      db,
      `INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at, nick_name, personal_email, contact_phone)
       SELECT ?1, ?3, 'administrator', 'active', 0, ?4, ?5, ?6, ?7 WHERE 1 = 1`,
      write.companyId,
      writeId,
      write.userId,
      write.now,
      fields.contact_name,
      fields.contact_email,
      fields.contact_phone,
    ),
    ...attachFiles(db, write, writeId),
    ifWritten(db, 'UPDATE users SET user_type = 2 WHERE id = ?3', write.companyId, writeId, write.userId),
  ]);
  return Boolean(inserted?.meta.changes);
}

/**
 * Replaces the company's form and files in one batch while its status is one of `fillable`: files left out of
 * the form are deleted (their rows; the caller deletes the bytes). Returns false, having written nothing, when
 * the name and type are taken, a file is no longer usable, or the status changed meanwhile.
 */
export async function updateCompany(db: D1Database, write: CompanyWrite, fillable: readonly string[], dropped: readonly string[]): Promise<boolean> {
  const writeId = crypto.randomUUID();
  const { fields } = write;
  let next = 5 + write.files.size;
  const assignments = FORM_COLUMNS.map((column) => `${column} = ?${next++}`).join(', ');
  const fillableList = fillable.map(() => `?${next++}`).join(', ');
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE companies SET ${assignments}, updated_at = ?${next}, write_id = ?${next + 1}
         WHERE id = ?1 AND status IN (${fillableList}) AND ${writeGuard(write.files.size)}`,
      )
      .bind(write.companyId, write.userId, fields.name_key, fields.type, ...write.files.keys(), ...FORM_COLUMNS.map((c) => fields[c]), ...fillable, write.now, writeId),
    ...dropped.map((fileId) => ifWritten(db, 'DELETE FROM files WHERE id = ?3 AND company_id = ?1', write.companyId, writeId, fileId)),
    ...attachFiles(db, write, writeId),
  ]);
  return Boolean(updated?.meta.changes);
}

// ---------------------------------------------------------------------------------------------------------
// Invitations and members
// ---------------------------------------------------------------------------------------------------------

/** Gives the company a new invitation code unless another company holds it; false on such a clash. */
export async function setInvitationCode(db: D1Database, companyId: string, code: string, now: number): Promise<boolean> {
  const changed = await db
    .prepare('UPDATE companies SET invitation_code = ?1, updated_at = ?2 WHERE id = ?3 AND NOT EXISTS (SELECT 1 FROM companies WHERE invitation_code = ?1)')
    .bind(code, now, companyId)
    .run();
  return changed.meta.changes > 0;
}

export interface StaffJoin {
  companyId: string;
  code: string;
  userId: string;
  nickName: string;
  personalEmail: string;
  contactPhone: string;
  hireTime: string | null;
  now: number;
}

/**
 * Adds the user as pending staff. The company is found by the code inside the INSERT, so a code regenerated
 * or a company closed meanwhile inserts nothing; one row per (company, user) makes parallel joins one
 * membership. Returns whether the membership was added.
 */
export async function insertStaffJoin(db: D1Database, join: StaffJoin): Promise<boolean> {
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at, nick_name, personal_email, contact_phone, hire_time)
         SELECT id, ?, 'staff', 'pending', 0, ?, ?, ?, ?, ? FROM companies
         WHERE invitation_code = ? AND id = ? AND status NOT IN ('blocked', 'expired')
         ON CONFLICT (company_id, user_id) DO NOTHING`,
      )
      .bind(join.userId, join.now, join.nickName, join.personalEmail, join.contactPhone, join.hireTime, join.code, join.companyId),
    emitEvent(db, { type: 'member.requested', at: join.now, companyId: join.companyId, data: { companyId: join.companyId, userId: join.userId } }, { ifChanged: true }),
    db.prepare('UPDATE users SET user_type = 2 WHERE id = ? AND user_type = 0').bind(join.userId),
    // The real name of the join form becomes the profile's name when the profile has none (issue 33): only when
    // this join went in (its row, with this moment), so a refused join writes nothing.
    db
      .prepare(
        `UPDATE users SET real_name = ?1 WHERE id = ?2 AND COALESCE(TRIM(real_name), '') = ''
           AND EXISTS (SELECT 1 FROM company_members WHERE company_id = ?3 AND user_id = ?2 AND joined_at = ?4 AND status = 'pending')`,
      )
      .bind(join.nickName, join.userId, join.companyId, join.now),
  ]);
  return Boolean(inserted?.meta.changes);
}

/**
 * Moves a pending staff join to `status`, once: of any number of parallel answers one changes it. `alongside`
 * runs in the same batch right after (the decision's audit row).
 */
export async function answerPendingJoin(
  db: D1Database,
  companyId: string,
  userId: string,
  status: 'active' | 'rejected',
  alongside: D1PreparedStatement[] = [],
): Promise<boolean> {
  const [changed] = await db.batch([
    db.prepare("UPDATE company_members SET status = ? WHERE company_id = ? AND user_id = ? AND role = 'staff' AND status = 'pending'").bind(status, companyId, userId),
    ...alongside,
  ]);
  return (changed?.meta.changes ?? 0) > 0;
}

/** Makes the company the user's main enterprise (one per user: any other loses the mark). */
export async function setMainCompany(db: D1Database, userId: string, companyId: string): Promise<void> {
  await db.batch([
    db.prepare('UPDATE company_members SET is_main = 0 WHERE user_id = ? AND is_main = 1 AND company_id <> ?').bind(userId, companyId),
    db.prepare('UPDATE company_members SET is_main = 1 WHERE user_id = ? AND company_id = ?').bind(userId, companyId),
  ]);
}

export async function clearMainCompany(db: D1Database, userId: string): Promise<void> {
  await db.prepare('UPDATE company_members SET is_main = 0 WHERE user_id = ? AND is_main = 1').bind(userId).run();
}

/** Removes one invitation_attempts row: a right code does not count against the guess caps. */
export async function withdrawInvitationAttempt(db: D1Database, id: string | number): Promise<void> {
  await db.prepare('DELETE FROM invitation_attempts WHERE id = ?').bind(id).run();
}

/** The company's administrator (the active one who created it first), to tell of a decision. */
export async function administratorOf(db: D1Database, companyId: string): Promise<{ id: string; email: string | null; phone_e164: string | null } | null> {
  return db
    .prepare(
      `SELECT u.id, u.email, u.phone_e164 FROM company_members m JOIN users u ON u.id = m.user_id
       WHERE m.company_id = ? AND m.role = 'administrator' AND m.status = 'active'
       ORDER BY m.joined_at LIMIT 1`,
    )
    .bind(companyId)
    .first();
}
