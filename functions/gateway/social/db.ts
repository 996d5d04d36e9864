import { auditStatement } from '../audit/db';
import { ERR } from '../../../src/schemas/error-codes';
import { GatewayError } from '../errors';

/**
 * A person's WeChat and WeCom ties (social_bindings): another way they sign in. Sign-in, the second step and
 * closure read and write them here; wechat/ runs the providers' flows that make them.
 */

export type Provider = 'wechat' | 'wecom';

export interface BindingRow {
  user_id: string;
  provider: Provider;
  subject: string;
  nickname: string;
  mp_openid: string | null;
  created_at: number;
}

export function findBinding(db: D1Database, provider: Provider, subject: string) {
  return db.prepare('SELECT * FROM social_bindings WHERE provider = ? AND subject = ?').bind(provider, subject).first<BindingRow>();
}

export function findBindingByMpOpenid(db: D1Database, openid: string) {
  return db.prepare("SELECT * FROM social_bindings WHERE provider = 'wechat' AND mp_openid = ?").bind(openid).first<BindingRow>();
}

export async function bindingsOfUser(db: D1Database, userId: string): Promise<BindingRow[]> {
  const { results } = await db.prepare('SELECT * FROM social_bindings WHERE user_id = ? ORDER BY provider').bind(userId).all<BindingRow>();
  return results;
}

/** The INSERT of a binding; the table's keys refuse a second account for the subject and a second subject for the account. */
export function insertBindingStatement(db: D1Database, row: BindingRow): D1PreparedStatement {
  return db
    .prepare('INSERT INTO social_bindings (user_id, provider, subject, nickname, mp_openid, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(row.user_id, row.provider, row.subject, row.nickname, row.mp_openid, row.created_at);
}

/**
 * What a failed batch with a binding INSERT means, decided by the table's keys (not by a read before the write,
 * which a parallel request can overtake): the subject (or its Official Account openid) is someone's already,
 * WX0007; the account has one of this provider already, WX0008. Null for any other failure.
 */
export function bindingRefusal(error: unknown): GatewayError | null {
  const message = error instanceof Error ? error.message : '';
  if (/UNIQUE constraint failed: social_bindings\.(provider, social_bindings\.subject|mp_openid)\b/.test(message)) return new GatewayError(ERR.WECHAT_BOUND_ELSEWHERE);
  if (/UNIQUE constraint failed: social_bindings\.user_id, social_bindings\.provider\b/.test(message)) return new GatewayError(ERR.WECHAT_ACCOUNT_HAS_ONE);
  return null;
}

/** A WeChat or WeCom to tie to an account: what a ticket (or a user-center scan) carries. */
export type SocialBinding = Pick<BindingRow, 'provider' | 'subject' | 'nickname' | 'mp_openid'>;

/** The binding statements of `userId` for `who`, with the audit row written only when the binding was. */
export function bindingStatements(db: D1Database, userId: string, who: SocialBinding, at: number, network: string | null): D1PreparedStatement[] {
  const { provider, subject, nickname, mp_openid } = who;
  return [
    insertBindingStatement(db, { user_id: userId, provider, subject, nickname, mp_openid, created_at: at }),
    auditStatement(db, { at, actor: { kind: 'user', id: userId }, action: 'user.social_bound', target: { kind: 'user', id: userId }, network, detail: { provider } }, { ifChanged: true }),
  ];
}

/** Learns the Official Account openid of a binding made elsewhere (the silent snsapi_base then finds it). */
export async function rememberMpOpenid(db: D1Database, userId: string, openid: string): Promise<void> {
  await db.prepare("UPDATE OR IGNORE social_bindings SET mp_openid = ?2 WHERE user_id = ?1 AND provider = 'wechat' AND mp_openid IS NULL").bind(userId, openid).run();
}

/**
 * Removes a binding only while another way in remains, in one statement: a phone, an e-mail or a password on the
 * account, a passkey, or another binding. Returns whether it was removed.
 */
export function unbindStatement(db: D1Database, userId: string, provider: Provider): D1PreparedStatement {
  return db
    .prepare(
      `DELETE FROM social_bindings WHERE user_id = ?1 AND provider = ?2 AND (
         EXISTS (SELECT 1 FROM users WHERE id = ?1 AND (phone_e164 IS NOT NULL OR email IS NOT NULL OR password_hash IS NOT NULL))
         OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ?1)
         OR EXISTS (SELECT 1 FROM social_bindings WHERE user_id = ?1 AND provider <> ?2))
       RETURNING provider`,
    )
    .bind(userId, provider);
}

export function deleteBindingsStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM social_bindings WHERE user_id = ?').bind(userId);
}
