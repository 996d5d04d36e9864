import type { ActivityEntry } from '../../../src/schemas/ops-people';
import { ownAuditRows } from './db';

/** How many of a person's own audit rows their Security section lists. */
export const ACTIVITY_LIMIT = 50;

/**
 * A person's own part of the audit trail: rows where they are the target or the actor, newest first. What is
 * internal to the platform stays out: no operator's id or name, no operator's reason or network, no detail.
 * A row of their own action keeps its client network (they may recognise it); one by someone else is
 * 'support' (an operator), 'company' (their company's administrator) or 'system'.
 */
export async function activityOf(db: D1Database, userId: string): Promise<ActivityEntry[]> {
  const results = await ownAuditRows(db, userId, ACTIVITY_LIMIT);
  return results.map((row) => {
    const own = row.actor_kind === 'user' && row.actor_id === userId;
    const by = own ? 'you' : row.actor_kind === 'operator' ? 'support' : row.actor_kind === 'user' ? 'company' : 'system';
    return { at: row.created_at, action: row.action, by, network: own ? row.network : null };
  });
}
