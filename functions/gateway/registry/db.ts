import type { RegistryCheck, RegistryTask } from '../../../src/schemas/registry';

/** The registry check's SQL (migration 0420): consents, checks, the monthly watch list and the operator tasks. */

export interface CheckRow {
  id: string;
  company_id: string;
  cause: string;
  provider: string | null;
  verdict: string;
  differing: string;
  registry_status: string | null;
  tried: string;
  checked_at: number;
}

export const checkOf = (row: CheckRow): RegistryCheck => ({
  verdict: row.verdict as RegistryCheck['verdict'],
  differing: row.differing ? (row.differing.split(',') as RegistryCheck['differing']) : [],
  registryStatus: row.registry_status as RegistryCheck['registryStatus'],
  provider: row.provider,
  cause: row.cause as RegistryCheck['cause'],
  checkedAt: row.checked_at,
});

export function insertConsent(db: D1Database, consent: { companyId: string; userId: string; version: string; lang: string; at: number }) {
  return db
    .prepare('INSERT INTO registry_consents (id, company_id, user_id, text_version, lang, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(crypto.randomUUID(), consent.companyId, consent.userId, consent.version, consent.lang, consent.at)
    .run();
}

export function insertCheck(db: D1Database, row: Omit<CheckRow, 'id'>) {
  return db
    .prepare('INSERT INTO registry_checks (id, company_id, cause, provider, verdict, differing, registry_status, tried, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(crypto.randomUUID(), row.company_id, row.cause, row.provider, row.verdict, row.differing, row.registry_status, row.tried, row.checked_at)
    .run();
}

export function latestCheck(db: D1Database, companyId: string): Promise<CheckRow | null> {
  return db.prepare('SELECT * FROM registry_checks WHERE company_id = ? ORDER BY checked_at DESC, rowid DESC LIMIT 1').bind(companyId).first<CheckRow>();
}

/** The latest check of each of these companies (the review queue's column). */
export async function latestChecks(db: D1Database, companyIds: string[]): Promise<Map<string, CheckRow>> {
  if (!companyIds.length) return new Map();
  const { results } = await db
    .prepare(
      `SELECT r.* FROM registry_checks r WHERE r.company_id IN (SELECT value FROM json_each(?))
       AND r.rowid = (SELECT r2.rowid FROM registry_checks r2 WHERE r2.company_id = r.company_id ORDER BY r2.checked_at DESC, r2.rowid DESC LIMIT 1)`,
    )
    .bind(JSON.stringify(companyIds))
    .all<CheckRow>();
  return new Map(results.map((row) => [row.company_id, row]));
}

export async function openTasks(db: D1Database, companyId: string): Promise<RegistryTask[]> {
  const { results } = await db
    .prepare('SELECT id, from_status, to_status, created_at FROM registry_tasks WHERE company_id = ? AND closed_at IS NULL ORDER BY created_at')
    .bind(companyId)
    .all<{ id: string; from_status: string | null; to_status: string; created_at: number }>();
  return results.map((row) => ({ id: row.id, fromStatus: row.from_status, toStatus: row.to_status, createdAt: row.created_at }));
}

export function insertTask(db: D1Database, task: { companyId: string; from: string | null; to: string; at: number }) {
  return db
    .prepare('INSERT INTO registry_tasks (id, company_id, from_status, to_status, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(crypto.randomUUID(), task.companyId, task.from, task.to, task.at)
    .run();
}

export function closeTasks(db: D1Database, companyId: string, at: number) {
  return db.prepare('UPDATE registry_tasks SET closed_at = ? WHERE company_id = ? AND closed_at IS NULL').bind(at, companyId).run();
}

/** Approved mainland companies that are not yet watched join the list, each first due at a random point of the next month. */
export async function enrolApproved(db: D1Database, at: number, monthMs: number): Promise<number> {
  const [enrolled] = await db.batch([
    db
      .prepare(
        `INSERT INTO registry_watch (company_id, next_check_at, last_status)
         SELECT c.id, ? + (abs(random()) % ?), NULL FROM companies c
         WHERE c.status IN ('verified', 'active') AND c.country_id = 'CN' AND c.social_credit IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM registry_watch w WHERE w.company_id = c.id)`,
      )
      .bind(at, monthMs),
    // A company no longer approved (blocked, expired) is no longer re-checked.
    db.prepare(`DELETE FROM registry_watch WHERE company_id NOT IN (SELECT id FROM companies WHERE status IN ('verified', 'active') AND country_id = 'CN')`),
  ]);
  return enrolled!.meta.changes;
}

export interface DueRow {
  company_id: string;
  next_check_at: number;
  last_status: string | null;
  name_en: string;
  name_cn: string | null;
  social_credit: string;
  lang: 'zh' | 'en';
}

export async function dueCompanies(db: D1Database, at: number, limit: number): Promise<DueRow[]> {
  const { results } = await db
    .prepare(
      `SELECT w.company_id, w.next_check_at, w.last_status, c.name_en, c.name_cn, c.social_credit, c.lang
       FROM registry_watch w JOIN companies c ON c.id = w.company_id
       WHERE w.next_check_at <= ? ORDER BY w.next_check_at LIMIT ?`,
    )
    .bind(at, limit)
    .all<DueRow>();
  return results;
}

/** Takes a due company for this run (a run beside it that took it first wins): true when this one has it. */
export async function claimDue(db: D1Database, row: DueRow, until: number): Promise<boolean> {
  const taken = await db.prepare('UPDATE registry_watch SET next_check_at = ? WHERE company_id = ? AND next_check_at = ?').bind(until, row.company_id, row.next_check_at).run();
  return taken.meta.changes === 1;
}

export function setWatched(db: D1Database, companyId: string, next: number, lastStatus: string | null) {
  return db.prepare('UPDATE registry_watch SET next_check_at = ?, last_status = ? WHERE company_id = ?').bind(next, lastStatus, companyId).run();
}
