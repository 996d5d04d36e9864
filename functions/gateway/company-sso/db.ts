import { mayManageSql, type Asker } from '../authority/db';
import { emitEvent } from '../events/db';
import { cappedInsert } from '../identity/db/limits';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * SQL of a company's proved e-mail domains (issue 43; rules in service.ts). Every write decides in its own
 * statement: the claim checks the administrator as it writes (authority/db.ts mayManageSql), and the proof is one
 * conditional UPDATE that the partial unique index `company_domains_one_owner` backs, so of two companies proving
 * one domain in parallel exactly one holds it.
 */

export interface DomainRow {
  id: string;
  company_id: string;
  domain: string;
  /** The connection its people sign in through; null: the company's first (DOMAIN_CONNECTION). */
  connection_id: string | null;
  token: string;
  created_by: string;
  created_at: number;
  checked_at: number | null;
  proved_at: number | null;
  removed_at: number | null;
}

export async function domainsOf(db: D1Database, companyId: string): Promise<DomainRow[]> {
  const { results } = await db.prepare('SELECT * FROM company_domains WHERE company_id = ? AND removed_at IS NULL ORDER BY created_at, domain').bind(companyId).all<DomainRow>();
  return results;
}

export const liveClaim = (db: D1Database, companyId: string, domain: string) =>
  db.prepare('SELECT * FROM company_domains WHERE company_id = ? AND domain = ? AND removed_at IS NULL').bind(companyId, domain).first<DomainRow>();

/** The company that holds `domain` (proved, not removed), if any. */
export const domainOwner = (db: D1Database, domain: string) =>
  db.prepare('SELECT * FROM company_domains WHERE domain = ? AND proved_at IS NOT NULL AND removed_at IS NULL').bind(domain).first<DomainRow>();

/** A new claim, written only while the caller manages the company and nobody else holds the domain; RETURNING the row. */
export const insertClaimStatement = (db: D1Database, row: Pick<DomainRow, 'id' | 'company_id' | 'domain' | 'token' | 'created_by' | 'created_at'>, mfaCompanyId: string | null) =>
  db
    .prepare(
      `INSERT INTO company_domains (id, company_id, domain, token, created_by, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE ${mayManageSql('?2', '?5', '?7')}
         AND NOT EXISTS (SELECT 1 FROM company_domains d WHERE d.domain = ?3 AND d.proved_at IS NOT NULL AND d.removed_at IS NULL)
       ON CONFLICT DO NOTHING
       RETURNING *`,
    )
    .bind(row.id, row.company_id, row.domain, row.token, row.created_by, row.created_at, mfaCompanyId);

/** The claim proved (its TXT record seen), while the caller still manages the company; the unique index refuses a second owner. */
export const proveStatement = (db: D1Database, claimId: string, asker: Asker, at: number) =>
  db
    .prepare(
      `UPDATE company_domains SET proved_at = ?3, checked_at = ?3
       WHERE id = ?1 AND proved_at IS NULL AND removed_at IS NULL AND ${mayManageSql('company_domains.company_id', '?2', '?4')}`,
    )
    .bind(claimId, asker.userId, at, asker.mfaCompanyId);

/**
 * The claim removed (proved or not), while the caller still manages the company: from this statement on, every
 * routing, lookup and admission query (all of which read `removed_at IS NULL`) stops seeing the domain.
 */
export const removeClaimStatement = (db: D1Database, claimId: string, asker: Asker, at: number) =>
  db
    .prepare(
      `UPDATE company_domains SET removed_at = ?3
       WHERE id = ?1 AND removed_at IS NULL AND ${mayManageSql('company_domains.company_id', '?2', '?4')}
       RETURNING id`,
    )
    .bind(claimId, asker.userId, at, asker.mfaCompanyId);

export const checkedStatement = (db: D1Database, claimId: string, at: number) => db.prepare('UPDATE company_domains SET checked_at = ?2 WHERE id = ?1').bind(claimId, at);

// ---------------------------------------------------------------------------------------------------------
// The OpenID Connect connection of a company (connections.ts, federation.ts).
// ---------------------------------------------------------------------------------------------------------

export interface ConnectionRow {
  id: string;
  company_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  email_claim: string;
  sso_only: 0 | 1;
  admit_domain: 0 | 1;
  disabled_at: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** A company's connections, oldest first (the first is where a domain that names none signs in). */
export async function connectionsOf(db: D1Database, companyId: string): Promise<ConnectionRow[]> {
  const { results } = await db.prepare('SELECT * FROM company_sso_connections WHERE company_id = ? ORDER BY created_at, id').bind(companyId).all<ConnectionRow>();
  return results;
}
export const connectionById = (db: D1Database, id: string) => db.prepare('SELECT * FROM company_sso_connections WHERE id = ?').bind(id).first<ConnectionRow>();

/**
 * SQL: the id of the connection a domain's people sign in through (`d` the company_domains row): the one it names,
 * else the company's first. The one routing rule: /login's offer, SSO-only, starting a flow, and admission.
 */
const DOMAIN_CONNECTION = `COALESCE(d.connection_id, (SELECT f.id FROM company_sso_connections f WHERE f.company_id = d.company_id ORDER BY f.created_at, f.id LIMIT 1))`;

/** The live connection (on) that `domain` routes to, with its company's names; null when there is none. */
export const connectionOfDomain = (db: D1Database, domain: string) =>
  db
    .prepare(
      `SELECT c.*, co.name_en, co.name_cn FROM company_domains d
         JOIN company_sso_connections c ON c.id = ${DOMAIN_CONNECTION} AND c.disabled_at IS NULL
         JOIN companies co ON co.id = d.company_id
       WHERE d.domain = ? AND d.proved_at IS NOT NULL AND d.removed_at IS NULL`,
    )
    .bind(domain)
    .first<ConnectionRow & { name_en: string; name_cn: string | null }>();

/** The company that proved `domain` and the connection it routes to (on or not); null when nobody holds it. */
export const routeOfDomain = (db: D1Database, domain: string) =>
  db
    .prepare(`SELECT d.company_id, ${DOMAIN_CONNECTION} AS connection_id FROM company_domains d WHERE d.domain = ? AND d.proved_at IS NOT NULL AND d.removed_at IS NULL`)
    .bind(domain)
    .first<{ company_id: string; connection_id: string | null }>();

/** Whether the account's e-mail domain routes to a connection that is on and SSO-only, as a statement for a sign-in's batch. */
export const ssoOnlyOfEmailStatement = (db: D1Database, userId: string) =>
  db
    .prepare(
      `SELECT c.company_id FROM users u
         JOIN company_domains d ON d.domain = lower(substr(u.email, instr(u.email, '@') + 1)) AND d.proved_at IS NOT NULL AND d.removed_at IS NULL
         JOIN company_sso_connections c ON c.id = ${DOMAIN_CONNECTION} AND c.disabled_at IS NULL AND c.sso_only = 1
       WHERE u.id = ? AND u.email IS NOT NULL`,
    )
    .bind(userId);

/** The same for an e-mail typed (a new person's code sign-in), to batch with its other reads: a row when SSO-only. */
export const ssoOnlyOfDomainStatement = (db: D1Database, domain: string) =>
  db
    .prepare(
      `SELECT c.company_id FROM company_domains d
         JOIN company_sso_connections c ON c.id = ${DOMAIN_CONNECTION} AND c.disabled_at IS NULL AND c.sso_only = 1
       WHERE d.domain = ? AND d.proved_at IS NOT NULL AND d.removed_at IS NULL`,
    )
    .bind(domain);

/** How many identity providers one company may connect (each is listed with a query of its own). */
export const CONNECTIONS_PER_COMPANY = 10;

/**
 * The connection written: a new one while the company has fewer than CONNECTIONS_PER_COMPANY, or a change of the
 * company's connection `row.id` (never another company's), only while the caller manages the company (in this
 * statement).
 */
export const upsertConnectionStatement = (db: D1Database, row: Omit<ConnectionRow, 'sso_only' | 'admit_domain' | 'disabled_at'>, asker: Asker) =>
  db
    .prepare(
      `INSERT INTO company_sso_connections (id, company_id, issuer, client_id, client_secret_sealed, email_claim, created_by, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8 WHERE ${mayManageSql('?2', '?9', '?10')}
         AND (EXISTS (SELECT 1 FROM company_sso_connections k WHERE k.id = ?1)
              OR (SELECT COUNT(*) FROM company_sso_connections k WHERE k.company_id = ?2) < ${CONNECTIONS_PER_COMPANY})
       ON CONFLICT (id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id,
         client_secret_sealed = excluded.client_secret_sealed, email_claim = excluded.email_claim, updated_at = excluded.updated_at
       WHERE company_sso_connections.company_id = excluded.company_id
       RETURNING id`,
    )
    .bind(row.id, row.company_id, row.issuer, row.client_id, row.client_secret_sealed, row.email_claim, row.created_by, row.created_at, asker.userId, asker.mfaCompanyId);

/** The switches changed (each null stays), only while the caller manages the company. */
export const settingsStatement = (db: D1Database, companyId: string, connectionId: string, asker: Asker, at: number, s: { ssoOnly: boolean | null; admitDomain: boolean | null; disabled: boolean | null }) =>
  db
    .prepare(
      `UPDATE company_sso_connections SET
         sso_only = COALESCE(?3, sso_only), admit_domain = COALESCE(?4, admit_domain),
         disabled_at = CASE WHEN ?5 IS NULL THEN disabled_at WHEN ?5 = 1 THEN COALESCE(disabled_at, ?6) ELSE NULL END,
         updated_at = ?6
       WHERE company_id = ?1 AND id = ?8 AND ${mayManageSql('company_sso_connections.company_id', '?2', '?7')}
       RETURNING id`,
    )
    .bind(companyId, asker.userId, bit(s.ssoOnly), bit(s.admitDomain), bit(s.disabled), at, asker.mfaCompanyId, connectionId);

/** The domain (a live claim of the company) routed to one of the company's connections, while the caller manages it. */
export const domainConnectionStatement = (db: D1Database, claimId: string, connectionId: string, asker: Asker) =>
  db
    .prepare(
      `UPDATE company_domains SET connection_id = ?2
       WHERE id = ?1 AND removed_at IS NULL AND connection_id IS NOT ?2
         AND EXISTS (SELECT 1 FROM company_sso_connections c WHERE c.id = ?2 AND c.company_id = company_domains.company_id)
         AND ${mayManageSql('company_domains.company_id', '?3', '?4')}
       RETURNING id`,
    )
    .bind(claimId, connectionId, asker.userId, asker.mfaCompanyId);

const bit = (value: boolean | null) => (value === null ? null : value ? 1 : 0);

export interface SsoSignInRow {
  created_at: number;
  outcome: 'signed-in' | 'linked' | 'applied' | 'admitted';
  real_name: string | null;
  email: string | null;
}

/** The newest sign-ins through one connection (at most 10). */
export async function lastSignIns(db: D1Database, connectionId: string): Promise<SsoSignInRow[]> {
  const { results } = await db
    .prepare(
      `SELECT s.created_at, s.outcome, u.real_name, u.email FROM company_sso_sign_ins s JOIN users u ON u.id = s.user_id
       WHERE s.connection_id = ? ORDER BY s.created_at DESC, s.id DESC LIMIT 10`,
    )
    .bind(connectionId)
    .all<SsoSignInRow>();
  return results;
}

export const ssoSignInStatement = (db: D1Database, row: { companyId: string; connectionId: string; userId: string; outcome: SsoSignInRow['outcome']; at: number }) =>
  db
    .prepare('INSERT INTO company_sso_sign_ins (company_id, connection_id, user_id, outcome, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(row.companyId, row.connectionId, row.userId, row.outcome, row.at);

// ---------------------------------------------------------------------------------------------------------
// Who the provider's people are here: links, and the membership of a new person.
// ---------------------------------------------------------------------------------------------------------

export const linkedUser = (db: D1Database, companyId: string, subject: string) =>
  db.prepare('SELECT user_id FROM company_sso_links WHERE company_id = ? AND subject = ?').bind(companyId, subject).first<{ user_id: string }>();

/** The tie; INSERT OR IGNORE so that a parallel tie of the same pair is one row (the keys decide). */
export const linkStatement = (db: D1Database, row: { companyId: string; subject: string; userId: string; at: number }) =>
  db.prepare('INSERT OR IGNORE INTO company_sso_links (company_id, subject, user_id, created_at) VALUES (?, ?, ?, ?)').bind(row.companyId, row.subject, row.userId, row.at);

/**
 * A new person of the provider in the company: a pending staff application (the approval queue, `member.requested`),
 * or an active staff member when the administrator admits people from the domain. Written with the new account.
 */
export function newMemberStatements(db: D1Database, m: { companyId: string; userId: string; name: string; email: string; active: boolean; at: number }): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO company_members (company_id, user_id, role, status, is_main, joined_at, nick_name, personal_email, contact_phone, hire_time)
         VALUES (?, ?, 'staff', ?, 0, ?, ?, ?, '', NULL) ON CONFLICT (company_id, user_id) DO NOTHING`,
      )
      .bind(m.companyId, m.userId, m.active ? 'active' : 'pending', m.at, m.name, m.email),
    emitEvent(db, { type: m.active ? 'member.approved' : 'member.requested', at: m.at, companyId: m.companyId, data: { companyId: m.companyId, userId: m.userId } }, { ifChanged: true }),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Flows under way: the OAuth state (SINGLE_USE.oauthState) and the ticket of an account to tie (SINGLE_USE.oauthTicket).
// ---------------------------------------------------------------------------------------------------------

const HOUR_MS = 60 * 60_000;

/** A new flow, capped per client network in its own INSERT (`cap` an hour, ID0620). */
export async function insertSsoState(
  db: D1Database,
  row: { stateHash: string; browserHash: string; connectionId: string; network: string | null; now: number; expiresAt: number },
  cap: number,
): Promise<void> {
  await cappedInsert(db, {
    table: 'oauth_states',
    row: { state_hash: row.stateHash, browser_hash: row.browserHash, method: 'company-sso', purpose: 'sign-in', user_id: null, network: row.network, created_at: row.now, expires_at: row.expiresAt, connection_id: row.connectionId },
    caps: [{ where: { network: row.network }, since: row.now - HOUR_MS, max: cap, code: ERR.SSO_STARTS_CAPPED }],
    returning: 'state_hash',
  });
}

/** Spends the company SSO state of this browser: the connection for the one caller that got it, null for a forged, swapped, spent or expired one. */
export const consumeSsoState = (db: D1Database, stateHash: string, browserHash: string, at: number) =>
  consume<{ connection_id: string }>(db, SINGLE_USE.oauthState, { state_hash: stateHash, browser_hash: browserHash, method: 'company-sso' }, at, { returning: 'connection_id' });

export interface SsoTicketRow {
  subject: string;
  nickname: string;
  company_id: string;
  email: string;
  amr: string;
}

export async function insertSsoTicket(db: D1Database, row: SsoTicketRow & { ticketHash: string; browserHash: string; now: number; expiresAt: number }): Promise<void> {
  await db
    .prepare(
      `INSERT INTO oauth_tickets (ticket_hash, browser_hash, provider, subject, nickname, company_id, email, amr, created_at, expires_at)
       VALUES (?, ?, 'company-sso', ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(row.ticketHash, row.browserHash, row.subject, row.nickname, row.company_id, row.email, row.amr, row.now, row.expiresAt)
    .run();
}

/** A live ticket of this browser, read without spending it (the code is checked first). */
export const liveSsoTicket = (db: D1Database, ticketHash: string, at: number) =>
  db
    .prepare("SELECT subject, nickname, company_id, email, amr FROM oauth_tickets WHERE ticket_hash = ? AND provider = 'company-sso' AND used_at IS NULL AND expires_at > ?")
    .bind(ticketHash, at)
    .first<SsoTicketRow>();

export const consumeSsoTicket = (db: D1Database, ticketHash: string, at: number) =>
  consume<SsoTicketRow>(db, SINGLE_USE.oauthTicket, { ticket_hash: ticketHash, provider: 'company-sso' }, at, { returning: 'subject, nickname, company_id, email, amr' });
