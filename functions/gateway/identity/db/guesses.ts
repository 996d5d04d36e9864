import type { ErrorCode } from '../../../../src/schemas/error-codes';
import { cappedInsert, type CappedInsert } from './limits';

/**
 * The guess log: every guess at a secret (a one-time code, a person's second factor, an operator's password or
 * app code) is recorded BEFORE it is compared, under a cap per subject and per client network over a window,
 * checked and inserted in one statement (cappedInsert), so a burst of any size gets no more comparisons than
 * the caps allow. A right guess is withdrawn: only wrong ones count. Each log keeps its own table (its subject
 * is a recipient, a person or an operator login); the rule is written once, here.
 */
export const GUESS_LOGS = {
  code: { table: 'code_guesses', subject: 'recipient', network: 'ip' },
  secondFactor: { table: 'two_step_guesses', subject: 'user_id', network: 'ip' },
  operator: { table: 'operator_guesses', subject: 'subject', network: 'network' },
  proof: { table: 'proof_guesses', subject: 'user_id', network: 'ip' },
} as const;
export type GuessLog = keyof typeof GUESS_LOGS;

export interface GuessCaps {
  windowMs: number;
  perNetwork: { max: number; code: ErrorCode };
  perSubject: { max: number; code: ErrorCode };
}

/**
 * Records a guess of `subject` from `network` and returns its id (to withdraw when it was right); refused with
 * the cap's code when either cap is reached. `fields` are further columns of the row that the caps count by
 * too (an operator's guess kind, password or app code).
 */
export async function recordGuess(db: D1Database, log: GuessLog, guess: Guess, caps: GuessCaps): Promise<number> {
  return Number(await cappedInsert(db, guessInsert(log, guess, caps)));
}

export interface Guess {
  subject: string;
  network: string;
  at: number;
  fields?: Record<string, string>;
}

/** The capped INSERT of recordGuess (identity/db/limits.ts), to batch with the try it counts: see codes/service.ts. */
export function guessInsert(log: GuessLog, { subject, network, at, fields = {} }: Guess, caps: GuessCaps): CappedInsert {
  const columns = GUESS_LOGS[log];
  const since = at - caps.windowMs;
  return {
    table: columns.table,
    row: { [columns.subject]: subject, [columns.network]: network, ...fields, created_at: at },
    // The subject's cap is named last: when a refusal is explained after parallel guesses were withdrawn,
    // the last cap is the answer, and such a burst is one at a single subject.
    caps: [
      { where: { [columns.network]: network, ...fields }, since, max: caps.perNetwork.max, code: caps.perNetwork.code },
      { where: { [columns.subject]: subject, ...fields }, since, max: caps.perSubject.max, code: caps.perSubject.code },
    ],
  };
}

/** The DELETE that withdraws a guess (a right one, or one never compared), to run alone or in a batch. */
export function withdrawGuessStatement(db: D1Database, log: GuessLog, id: number): D1PreparedStatement {
  return db.prepare(`DELETE FROM ${GUESS_LOGS[log].table} WHERE id = ?`).bind(id);
}

export async function withdrawGuess(db: D1Database, log: GuessLog, id: number): Promise<void> {
  await withdrawGuessStatement(db, log, id).run();
}
