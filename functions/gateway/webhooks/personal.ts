import type { CompanyAuditRow, PersonalFields } from '../../../src/schemas/webhooks';
import type { AuditParty, AuditRow } from '../audit/db';
import { personalHasher } from './signing';

/**
 * What leaves the portal about people (events, the streamed trail, exports): phone numbers and e-mail addresses
 * are masked (`+86*******78`, `w***@example.com`), hashed (HMAC under a key of the company: signing.ts
 * personalHasher) or, only when the company's administrator chose it, sent in clear. Any field whose name says
 * phone, mobile, tel or e-mail is one, at any depth of the data.
 */
const PERSONAL_KEY = /phone|mobile|^tel$|email|e_mail/i;

export function maskPhone(value: string): string {
  const kept = value.replace(/\s+/g, '');
  if (kept.length <= 5) return '*'.repeat(kept.length);
  return `${kept.slice(0, 3)}${'*'.repeat(kept.length - 5)}${kept.slice(-2)}`;
}

export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 1) return '***';
  return `${value[0]}***${value.slice(at)}`;
}

export type Protect = <T>(value: T) => Promise<T>;

/** The protection an endpoint or an export asked for, for one company (null: a platform endpoint). */
export async function protector(env: object, companyId: string | null, fields: PersonalFields): Promise<Protect> {
  if (fields === 'clear') return async (value) => value;
  const hash = fields === 'hashed' ? await personalHasher(env, companyId) : null;
  const one = async (key: string, value: string) => (hash ? hash(value) : /mail/i.test(key) || value.includes('@') ? maskEmail(value) : maskPhone(value));
  const walk = async (value: unknown, key: string | null): Promise<unknown> => {
    if (typeof value === 'string') return key !== null && PERSONAL_KEY.test(key) && value ? one(key, value) : value;
    if (Array.isArray(value)) return Promise.all(value.map((item) => walk(item, key)));
    if (value && typeof value === 'object') {
      const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await walk(v, k)] as const));
      return Object.fromEntries(entries);
    }
    return value;
  };
  return async <T>(value: T) => (await walk(value, null)) as T;
}

const readDetail = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** One audit row as a company's administrator reads, exports and streams it, in clear (protect it before it leaves). */
export function trailRow(row: AuditRow, parties: Map<string, AuditParty>, operatorName: (row: AuditRow) => string | null): CompanyAuditRow {
  const party = row.actor_kind === 'user' && row.actor_id ? parties.get(row.actor_id) : undefined;
  return {
    id: row.id,
    at: new Date(row.created_at).toISOString(),
    action: row.action,
    actor: {
      kind: row.actor_kind,
      // Operators are named by their name alone: their ids stay inside the platform.
      id: row.actor_kind === 'operator' ? null : row.actor_id,
      name: row.actor_kind === 'operator' ? operatorName(row) : (party?.name ?? null),
      phone: party?.phone ?? null,
      email: party?.email ?? null,
    },
    target: { kind: row.target_kind, id: row.target_id },
    reason: row.reason,
    network: row.network,
    detail: readDetail(row.detail),
  };
}
