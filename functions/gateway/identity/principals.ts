/**
 * The kinds of principal the identity core serves. A person signs in to the platform (a 'partner' session is
 * still a person's, opened on the navigator host); an operator is the platform's own staff, with a role. Each
 * kind keeps its rows in tables of its own, so a person's secret never opens an operator's door and the reverse;
 * what is done with those rows (sessions, second-step challenges, the TOTP step, single-use secrets) is written
 * once in this folder and told the kind.
 */
export type PrincipalKind = 'person' | 'operator';

export interface PrincipalTables {
  /** The session table and the column naming its principal. */
  sessions: { table: string; owner: string };
  /** The second-step challenge table's owner column (the table is SINGLE_USE's). */
  challengeOwner: string;
  /** Where the last TOTP step taken is kept: table, key column, step column, and what makes the row usable. */
  totp: { table: string; key: string; step: string; live: string };
}

export const PRINCIPALS: Record<PrincipalKind, PrincipalTables> = {
  person: {
    sessions: { table: 'sessions', owner: 'user_id' },
    challengeOwner: 'user_id',
    totp: { table: 'two_step', key: 'user_id', step: 'last_used_step', live: 'enabled_at IS NOT NULL' },
  },
  operator: {
    sessions: { table: 'operator_sessions', owner: 'operator_id' },
    challengeOwner: 'operator_id',
    totp: { table: 'operators', key: 'id', step: 'totp_last_step', live: 'removed_at IS NULL' },
  },
};
