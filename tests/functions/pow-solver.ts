import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/** A proof of work that costs next to nothing, for test files that pass the slider often (startWorkerEnv vars). */
export const CHEAP_POW = { CAPTCHA_POW_COST: '1', CAPTCHA_POW_COUNTER: '16' } as const;

export type PowChallenge = { parameters: Record<string, unknown>; signature: string };

/** Solves a slider challenge's proof of work as the browser's worker does (Node's native PBKDF2 here). */
export async function solvePow(challenge: PowChallenge) {
  const solution = await solveChallenge({ challenge: challenge as unknown as Parameters<typeof solveChallenge>[0]['challenge'], deriveKey });
  if (!solution) throw new Error('proof of work not solved');
  return { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } };
}
