import type { UserRow } from '../identity/db/people';

/**
 * The SQL of a person's rights over their data (migrations/0310): copies of their data, separate consents, the
 * closure of an account with its cooling-off and legal hold, and the erasure. Every check-and-act is one
 * statement, so parallel calls cannot both pass a check.
 */

export interface DataExportRow {
  id: string;
  user_id: string;
  requested_at: number;
  status: 'queued' | 'building' | 'ready' | 'failed' | 'expired';
  started_at: number | null;
  r2_key: string | null;
  size: number | null;
  ready_at: number | null;
  expires_at: number | null;
  downloaded_at: number | null;
}

/** The INSERT of a copy request, written only when the person asked for none since `since` (one a day). */
export function copyRequestStatement(db: D1Database, row: { id: string; userId: string; at: number; since: number; sessionHash: string }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO data_exports (id, user_id, requested_at, status, asked_by_session)
       SELECT ?1, ?2, ?3, 'queued', ?5
       WHERE NOT EXISTS (SELECT 1 FROM data_exports WHERE user_id = ?2 AND requested_at > ?4)`,
    )
    .bind(row.id, row.userId, row.at, row.since, row.sessionHash);
}

/** The person's copies, newest first (the last few). */
export async function copiesOf(db: D1Database, userId: string, limit = 5): Promise<DataExportRow[]> {
  const { results } = await db.prepare('SELECT * FROM data_exports WHERE user_id = ? ORDER BY requested_at DESC LIMIT ?').bind(userId, limit).all<DataExportRow>();
  return results;
}

/**
 * Claims the oldest copy waiting to be made (or one whose maker stopped before `staleBefore`): one UPDATE, so two
 * runs of the job never make the same copy.
 */
export function claimNextCopy(db: D1Database, at: number, staleBefore: number): Promise<DataExportRow | null> {
  return db
    .prepare(
      `UPDATE data_exports SET status = 'building', started_at = ?1
       WHERE id = (SELECT id FROM data_exports
                   WHERE status = 'queued' OR (status = 'building' AND started_at < ?2)
                   ORDER BY requested_at LIMIT 1)
       RETURNING *`,
    )
    .bind(at, staleBefore)
    .first<DataExportRow>();
}

export function copyReadyStatement(db: D1Database, copy: { id: string; r2Key: string; size: number; at: number; expiresAt: number }): D1PreparedStatement {
  return db
    .prepare(`UPDATE data_exports SET status = 'ready', r2_key = ?2, size = ?3, ready_at = ?4, expires_at = ?5 WHERE id = ?1 AND status = 'building'`)
    .bind(copy.id, copy.r2Key, copy.size, copy.at, copy.expiresAt);
}

export async function markCopyFailed(db: D1Database, id: string): Promise<void> {
  await db.prepare(`UPDATE data_exports SET status = 'failed' WHERE id = ? AND status = 'building'`).bind(id).run();
}

/**
 * The R2 key of a ready copy, only when it is `userId`'s own, still within its 24 hours, and asked for by the
 * session `reader.sessionHash` unless that session has a fresh proof of its own (`reader.fresh`): owner, state,
 * age and proof are checked in the same statement that reads the key, so no other id, person, moment or unproved
 * session reaches the file.
 */
export function ownReadyCopy(
  db: D1Database,
  id: string,
  userId: string,
  at: number,
  reader: { sessionHash: string; fresh: boolean },
): Promise<{ r2_key: string; size: number } | null> {
  return db
    .prepare(
      `SELECT r2_key, size FROM data_exports WHERE id = ?1 AND user_id = ?2 AND status = 'ready' AND expires_at > ?3 AND r2_key IS NOT NULL
         AND (?5 = 1 OR asked_by_session = ?4)`,
    )
    .bind(id, userId, at, reader.sessionHash, reader.fresh ? 1 : 0)
    .first<{ r2_key: string; size: number }>();
}

export function copyDownloadedStatement(db: D1Database, id: string, userId: string, at: number): D1PreparedStatement {
  return db.prepare('UPDATE data_exports SET downloaded_at = ?3 WHERE id = ?1 AND user_id = ?2').bind(id, userId, at);
}

/** Ready copies past their 24 hours (their R2 objects go), at most `limit`. */
export async function expiredCopies(db: D1Database, at: number, limit: number): Promise<{ id: string; r2_key: string }[]> {
  const { results } = await db
    .prepare(`SELECT id, r2_key FROM data_exports WHERE status = 'ready' AND expires_at <= ? AND r2_key IS NOT NULL LIMIT ?`)
    .bind(at, limit)
    .all<{ id: string; r2_key: string }>();
  return results;
}

export async function markCopiesExpired(db: D1Database, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await db.batch(ids.map((id) => db.prepare(`UPDATE data_exports SET status = 'expired', r2_key = NULL WHERE id = ? AND status = 'ready'`).bind(id)));
}

/**
 * The registry checks of the person's companies (issue 42): for each company the person is an active member of,
 * the time of its latest check that reached the registry (a `notChecked` run did not). The verdict itself is the
 * operators' (it may name the legal representative's fields); the person is told that and when it was checked.
 */
export async function registryCheckedOf(db: D1Database, userId: string): Promise<{ companyId: string; name: string; checkedAt: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id AS companyId, coalesce(nullif(c.name_cn, ''), c.name_en) AS name,
              (SELECT max(r.checked_at) FROM registry_checks r WHERE r.company_id = c.id AND r.verdict <> 'notChecked') AS checkedAt
       FROM company_members m JOIN companies c ON c.id = m.company_id
       WHERE m.user_id = ? AND m.status = 'active' AND checkedAt IS NOT NULL ORDER BY m.joined_at`,
    )
    .bind(userId)
    .all<{ companyId: string; name: string; checkedAt: number }>();
  return results;
}

// ---- What a copy holds: the person's own rows, never a hash, secret, token or key (columns are named). ----

export async function membershipsForCopy(db: D1Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT m.company_id, c.name_en, c.name_cn, c.type, m.role, m.status, m.is_main, m.joined_at, m.nick_name,
              m.personal_email, m.contact_phone, m.hire_time,
              (SELECT json_group_array(module_key) FROM member_modules mm WHERE mm.company_id = m.company_id AND mm.user_id = m.user_id) AS modules,
              (SELECT max(r.checked_at) FROM registry_checks r WHERE r.company_id = m.company_id AND r.verdict <> 'notChecked') AS registry_checked_at
       FROM company_members m JOIN companies c ON c.id = m.company_id
       WHERE m.user_id = ? ORDER BY m.joined_at`,
    )
    .bind(userId)
    .all<{
      company_id: string;
      name_en: string;
      name_cn: string | null;
      type: string;
      role: string;
      status: string;
      is_main: number;
      joined_at: number;
      nick_name: string | null;
      personal_email: string | null;
      contact_phone: string | null;
      hire_time: string | null;
      modules: string;
      registry_checked_at: number | null;
    }>();
  return results;
}

export async function sessionsForCopy(db: D1Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT kind, created_at, last_seen_at, expires_at, revoked_at, device, country, network, user_agent, proved_with
       FROM sessions WHERE user_id = ? ORDER BY created_at DESC`,
    )
    .bind(userId)
    .all<{
      kind: string;
      created_at: number;
      last_seen_at: number;
      expires_at: number;
      revoked_at: number | null;
      device: string | null;
      country: string | null;
      network: string | null;
      user_agent: string | null;
      proved_with: string | null;
    }>();
  return results;
}

/** The person's known devices (issue 44) for the copy: never the token's hash, only the public id. */
export async function devicesForCopy(db: D1Database, userId: string) {
  const { results } = await db
    .prepare('SELECT public_id, created_at, last_used_at, user_agent, country, trusted_until FROM known_devices WHERE user_id = ? ORDER BY last_used_at DESC')
    .bind(userId)
    .all<{ public_id: string; created_at: number; last_used_at: number; user_agent: string | null; country: string | null; trusted_until: number | null }>();
  return results;
}

export async function signInsForCopy(db: D1Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT created_at, method, partner, success, country, network, user_agent, device, second_step, new_device, new_country
       FROM sign_ins WHERE user_id = ? ORDER BY created_at DESC`,
    )
    .bind(userId)
    .all<{
      created_at: number;
      method: string;
      partner: number;
      success: number;
      country: string | null;
      network: string | null;
      user_agent: string | null;
      device: string | null;
      second_step: string | null;
      new_device: number;
      new_country: number;
    }>();
  return results;
}

export async function agreementsOf(db: D1Database, userId: string) {
  const { results } = await db
    .prepare('SELECT document, version, agreed_at FROM user_consents WHERE user_id = ? ORDER BY agreed_at, document')
    .bind(userId)
    .all<{ document: string; version: string; agreed_at: number }>();
  return results;
}

export async function consentChangesOf(db: D1Database, userId: string) {
  const { results } = await db
    .prepare('SELECT purpose, granted, changed_at FROM consent_changes WHERE user_id = ? ORDER BY id')
    .bind(userId)
    .all<{ purpose: 'tracking'; granted: number; changed_at: number }>();
  return results;
}

export function consentChangeStatement(db: D1Database, change: { userId: string; purpose: string; granted: boolean; at: number }): D1PreparedStatement {
  return db
    .prepare('INSERT INTO consent_changes (user_id, purpose, granted, changed_at) VALUES (?, ?, ?, ?)')
    .bind(change.userId, change.purpose, change.granted ? 1 : 0, change.at);
}

/** Whether the person's latest choice about `purpose` is a withdrawal. */
export async function consentWithdrawn(db: D1Database, userId: string, purpose: string): Promise<boolean> {
  const row = await db
    .prepare('SELECT granted FROM consent_changes WHERE user_id = ? AND purpose = ? ORDER BY id DESC LIMIT 1')
    .bind(userId, purpose)
    .first<{ granted: number }>();
  return row?.granted === 0;
}

export async function filesForCopy(db: D1Database, userId: string) {
  const { results } = await db
    .prepare('SELECT id, company_id, kind, purpose, r2_key, extension, content_type, origin_name, size, created_at FROM files WHERE owner_user_id = ? ORDER BY created_at')
    .bind(userId)
    .all<{
      id: string;
      company_id: string | null;
      kind: string;
      purpose: string | null;
      r2_key: string;
      extension: string;
      content_type: string;
      origin_name: string;
      size: number;
      created_at: number;
    }>();
  return results;
}

export async function secondFactorsForCopy(db: D1Database, userId: string) {
  const [twoStep, codes, passkeys] = await db.batch([
    db.prepare('SELECT enabled_at, created_at FROM two_step WHERE user_id = ?').bind(userId),
    db.prepare(
      `SELECT count(*) AS left FROM recovery_codes r JOIN two_step t ON t.user_id = r.user_id AND t.recovery_batch = r.batch
       WHERE r.user_id = ? AND r.used_at IS NULL`,
    ).bind(userId),
    db.prepare('SELECT name, device_type, backed_up, created_at, last_used_at FROM passkeys WHERE user_id = ? ORDER BY created_at').bind(userId),
  ]);
  return {
    twoStep: (twoStep?.results[0] as { enabled_at: number | null; created_at: number } | undefined) ?? null,
    recoveryCodesLeft: (codes?.results[0] as { left: number } | undefined)?.left ?? 0,
    passkeys: (passkeys?.results ?? []) as { name: string; device_type: string; backed_up: number; created_at: number; last_used_at: number | null }[],
  };
}

// ---- Closing an account ----

/** SQL: the person (?1) is the last active administrator of some company. */
const LAST_ADMINISTRATOR = `EXISTS (
  SELECT 1 FROM company_members m
  WHERE m.user_id = ?1 AND m.role = 'administrator' AND m.status = 'active'
    AND NOT EXISTS (SELECT 1 FROM company_members o
                    WHERE o.company_id = m.company_id AND o.user_id <> ?1 AND o.role = 'administrator' AND o.status = 'active'))`;

/**
 * SQL: the person (?1) is the last active administrator of some company that stays: no other active administrator
 * whose own account is not closing. Closing asks this, so of two last administrators who close at once the second
 * UPDATE sees the first's closure and is refused (D1 runs one statement at a time).
 */
const LAST_STAYING_ADMINISTRATOR = `EXISTS (
  SELECT 1 FROM company_members m
  WHERE m.user_id = ?1 AND m.role = 'administrator' AND m.status = 'active'
    AND NOT EXISTS (SELECT 1 FROM company_members o JOIN users ou ON ou.id = o.user_id
                    WHERE o.company_id = m.company_id AND o.user_id <> ?1 AND o.role = 'administrator' AND o.status = 'active'
                      AND ou.closes_at IS NULL AND ou.erased_at IS NULL))`;

/** The companies that would be left without a staying administrator if the person closed (DR0003 names them). */
export async function lastAdministratorOf(db: D1Database, userId: string): Promise<{ companyId: string; name: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id AS companyId, coalesce(nullif(c.name_cn, ''), c.name_en) AS name FROM company_members m JOIN companies c ON c.id = m.company_id
       WHERE m.user_id = ?1 AND m.role = 'administrator' AND m.status = 'active'
         AND NOT EXISTS (SELECT 1 FROM company_members o JOIN users ou ON ou.id = o.user_id
                         WHERE o.company_id = m.company_id AND o.user_id <> ?1 AND o.role = 'administrator' AND o.status = 'active'
                           AND ou.closes_at IS NULL AND ou.erased_at IS NULL)`,
    )
    .bind(userId)
    .all<{ companyId: string; name: string }>();
  return results;
}

/**
 * Starts the cooling-off: only when the account is not closing already, not erased, and its person is no
 * company's last staying administrator (an administrator who is closing too does not count), all in this one
 * UPDATE: 20 parallel requests make one closure, and two last administrators closing at once make one.
 */
export function closeStatement(db: D1Database, userId: string, at: number, closesAt: number, lang: 'zh' | 'en' = 'zh'): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET closing_since = ?2, closes_at = ?3, closing_lang = ?4, erasure_skipped_at = NULL
       WHERE id = ?1 AND closes_at IS NULL AND erased_at IS NULL AND NOT ${LAST_STAYING_ADMINISTRATOR}`,
    )
    .bind(userId, at, closesAt, lang);
}

/** Ends the cooling-off: the account stays. */
export function keepStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('UPDATE users SET closing_since = NULL, closes_at = NULL WHERE id = ? AND closes_at IS NOT NULL AND erased_at IS NULL').bind(userId);
}

export function placeHoldStatement(db: D1Database, userId: string, reason: string, at: number): D1PreparedStatement {
  return db.prepare('UPDATE users SET legal_hold_reason = ?2, legal_hold_at = ?3 WHERE id = ?1 AND legal_hold_reason IS NULL').bind(userId, reason, at);
}

export function liftHoldStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('UPDATE users SET legal_hold_reason = NULL, legal_hold_at = NULL WHERE id = ? AND legal_hold_reason IS NOT NULL').bind(userId);
}

/** Accounts closing or closed, for operators: the soonest erasure first, then the erased ones, newest first. */
export async function closingAccounts(db: D1Database, limit: number): Promise<UserRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM users WHERE closes_at IS NOT NULL OR erased_at IS NOT NULL
       ORDER BY erased_at IS NOT NULL, closes_at, erased_at DESC LIMIT ?`,
    )
    .bind(limit)
    .all<UserRow>();
  return results;
}

// ---- The erasure ----

/** Accounts past their cooling-off with no legal hold (and no company left without its last administrator). */
export async function dueForErasure(db: D1Database, at: number, limit: number): Promise<UserRow[]> {
  const { results } = await db
    .prepare(
      `SELECT u.* FROM users u WHERE u.closes_at <= ? AND u.erased_at IS NULL AND u.legal_hold_reason IS NULL
         AND NOT ${LAST_ADMINISTRATOR.replaceAll('?1', 'u.id')} ORDER BY u.closes_at LIMIT ?`,
    )
    .bind(at, limit)
    .all<UserRow>();
  return results;
}

/**
 * Marks, once per closure, the accounts past their cooling-off (unheld) that the job cannot erase because their
 * person is still a company's last active administrator (someone removed the other administrator meanwhile): one
 * UPDATE … RETURNING, so two runs never both tell.
 */
export async function claimSkippedErasures(db: D1Database, at: number, limit: number): Promise<UserRow[]> {
  const { results } = await db
    .prepare(
      `UPDATE users SET erasure_skipped_at = ?1
       WHERE id IN (SELECT u.id FROM users u WHERE u.closes_at <= ?1 AND u.erased_at IS NULL AND u.legal_hold_reason IS NULL
                      AND u.erasure_skipped_at IS NULL AND ${LAST_ADMINISTRATOR.replaceAll('?1', 'u.id')} LIMIT ?2)
       RETURNING *`,
    )
    .bind(at, limit)
    .all<UserRow>();
  return results;
}

/** The companies whose last active administrator the person is, with the language they are told in. */
export async function companiesKeepingErasure(db: D1Database, userId: string): Promise<{ id: string; lang: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.lang FROM company_members m JOIN companies c ON c.id = m.company_id
       WHERE m.user_id = ?1 AND m.role = 'administrator' AND m.status = 'active'
         AND NOT EXISTS (SELECT 1 FROM company_members o
                         WHERE o.company_id = m.company_id AND o.user_id <> ?1 AND o.role = 'administrator' AND o.status = 'active')`,
    )
    .bind(userId)
    .all<{ id: string; lang: string }>();
  return results;
}

/** The R2 keys of what goes with the person: files they uploaded for themselves (no company) and their copies. */
export async function personalObjectsOf(db: D1Database, userId: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT r2_key FROM files WHERE owner_user_id = ?1 AND company_id IS NULL
       UNION ALL SELECT r2_key FROM data_exports WHERE user_id = ?1 AND r2_key IS NOT NULL`,
    )
    .bind(userId)
    .all<{ r2_key: string }>();
  return results.map((row) => row.r2_key);
}

/** SQL: this run (?2) is erasing the person (?1): every statement after the first runs only then. */
const ERASING = 'EXISTS (SELECT 1 FROM users WHERE id = ?1 AND erased_at = ?2)';

/**
 * The erasure as one batch (all or nothing). The first statement blanks the account's personal fields and marks it
 * erased, only while it is still past its cooling-off, unheld and no company's last administrator (a legal hold
 * placed a moment ago wins); every other statement runs only when that one did (ERASING). The row keeps its random
 * id, which is what the audit trail keeps as the pseudonym; us_id takes a value derived from it, since a users row
 * must name one way to sign in, and nobody can sign in with it.
 *
 * `names` are the person's sign-in names (phone, e-mail, chain-partner id) as they were: rows of short-lived
 * tables keyed by them (codes, guesses, slider checks, the e-mail way-out tickets, the dev outbox) go too. Every
 * table that can hold a person's contact details belongs here (tests/functions/data-rights.test.ts walks every
 * table for the erased phone, e-mail and name).
 */
export function erasureStatements(db: D1Database, userId: string, at: number, names: readonly string[]): D1PreparedStatement[] {
  const subjects = [...names, userId];
  const list = subjects.map((_, i) => `?${i + 3}`).join(', ');
  const byUser = (table: string, column = 'user_id') => db.prepare(`DELETE FROM ${table} WHERE ${column} = ?1 AND ${ERASING}`).bind(userId, at);
  const bySubject = (table: string, column: string) =>
    db.prepare(`DELETE FROM ${table} WHERE ${column} IN (${list}) AND ${ERASING}`).bind(userId, at, ...subjects);
  return [
    db
      .prepare(
        `UPDATE users SET phone_e164 = NULL, email = NULL, us_id = 'erased:' || id, real_name = '', login_name = '',
           password_hash = NULL, password_salt = NULL, password_algo = NULL, password_params = NULL, legacy_salt = NULL,
           original_flag = 0, identity = NULL, pending_company_name = NULL, pending_port_id = NULL, source = NULL,
           is_partner = 0, country_id = NULL, country_name = NULL, birthday = NULL, sex = NULL, photo_file_id = NULL,
           passkeys_review_since = NULL, erased_at = ?2
         WHERE id = ?1 AND erased_at IS NULL AND closes_at <= ?2 AND legal_hold_reason IS NULL AND NOT ${LAST_ADMINISTRATOR}`,
      )
      .bind(userId, at),
    byUser('sessions'),
    byUser('member_modules'),
    // Memberships end; company files stay with the company (files.company_id set), the person's own go.
    byUser('company_members'),
    db.prepare(`DELETE FROM files WHERE owner_user_id = ?1 AND company_id IS NULL AND ${ERASING}`).bind(userId, at),
    byUser('user_consents'),
    byUser('consent_changes'),
    byUser('data_exports'),
    byUser('sign_ins'),
    // Known devices and their trust (issue 44).
    byUser('known_devices'),
    byUser('two_step'),
    byUser('recovery_codes'),
    byUser('second_step_challenges'),
    byUser('two_step_guesses'),
    byUser('passkeys'),
    byUser('social_bindings'),
    byUser('oauth_states'),
    byUser('company_sso_links'),
    byUser('company_sso_sign_ins'),
    bySubject('oauth_tickets', 'email'),
    byUser('webauthn_challenges'),
    byUser('proof_guesses'),
    byUser('security_notices'),
    byUser('invitation_attempts'),
    byUser('contact_undos'),
    db.prepare(`DELETE FROM login_links WHERE (user_id = ?1 OR recipient IN (${list})) AND ${ERASING}`).bind(userId, at, ...subjects),
    bySubject('codes', 'recipient'),
    bySubject('code_guesses', 'recipient'),
    bySubject('outbox', 'recipient'),
    bySubject('slider_challenges', 'subject'),
    bySubject('password_failures', 'subject'),
    bySubject('new_user_checks', 'subject'),
    // The e-mail way out of an SMS outage (codes/fallback.ts): its ticket names the phone.
    bySubject('delivery_fallbacks', 'recipient'),
  ];
}

/** Whether the erasure of `userId` at `at` landed (its first statement's mark). */
export async function erasedAt(db: D1Database, userId: string): Promise<number | null> {
  const row = await db.prepare('SELECT erased_at FROM users WHERE id = ?').bind(userId).first<{ erased_at: number | null }>();
  return row?.erased_at ?? null;
}

/**
 * A new e-mail or phone for the account (after its code was used up): the UNIQUE column refuses one that another
 * account took meanwhile. A login name that was the old address follows it.
 */
export function contactChangeStatement(db: D1Database, userId: string, column: 'email' | 'phone_e164', value: string, old: string | null): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET ${column} = ?2, login_name = CASE WHEN ?3 IS NOT NULL AND login_name = ?3 THEN ?2 ELSE login_name END
       WHERE id = ?1 AND erased_at IS NULL`,
    )
    .bind(userId, value, old);
}

/**
 * The "This wasn't me" link of an e-mail change, written in the change's batch: only if the account names the new
 * address now (the change above it landed).
 */
export function contactUndoInsertStatement(
  db: D1Database,
  row: { id: string; tokenHash: string; userId: string; oldEmail: string; newEmail: string; at: number; expiresAt: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO contact_undos (id, token_hash, user_id, old_email, new_email, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?3 AND email = ?5 AND erased_at IS NULL)`,
    )
    .bind(row.id, row.tokenHash, row.userId, row.oldEmail, row.newEmail, row.at, row.expiresAt);
}

export interface ContactUndoRow {
  id: string;
  user_id: string;
  old_email: string;
  new_email: string;
  expires_at: number;
  used_at: number | null;
}

/** The link's row by its secret's hash (to say why a spend found nothing, and what to put back). */
export function contactUndoByHash(db: D1Database, hash: string): Promise<ContactUndoRow | null> {
  return db.prepare('SELECT id, user_id, old_email, new_email, expires_at, used_at FROM contact_undos WHERE token_hash = ?').bind(hash).first<ContactUndoRow>();
}

/** `WHERE` part true while the link `?1` is live at `?2`: every statement of the undo runs only then. */
const UNDO_LIVE = 'EXISTS (SELECT 1 FROM contact_undos WHERE id = ?1 AND used_at IS NULL AND expires_at > ?2)';

/**
 * What the undo changes before its link is spent (the spend comes last in the same batch, and decides): the old
 * address back (a login name that followed the change follows it back), the password off (whoever changed the
 * address may know it), and every other "This wasn't me" link of the account spent, so no later link can move the
 * address again. Each runs only while the link is live; the address's UPDATE comes last, so that a statement after
 * it in the batch can ask `changes() = 1`.
 */
export function undoEmailStatements(db: D1Database, row: Pick<ContactUndoRow, 'id' | 'user_id' | 'old_email'>, at: number): D1PreparedStatement[] {
  return [
    db.prepare(`UPDATE contact_undos SET used_at = ?2 WHERE user_id = ?3 AND id <> ?1 AND used_at IS NULL AND ${UNDO_LIVE}`).bind(row.id, at, row.user_id),
    db
      .prepare(
        `UPDATE users SET login_name = CASE WHEN email IS NOT NULL AND login_name = email THEN ?4 ELSE login_name END, email = ?4,
           password_hash = NULL, password_salt = NULL, password_algo = NULL, password_params = NULL, legacy_salt = NULL, original_flag = 0
         WHERE id = ?3 AND erased_at IS NULL AND ${UNDO_LIVE}`,
      )
      .bind(row.id, at, row.user_id, row.old_email),
  ];
}

