import { solveChallengeWorkers } from 'altcha-lib';
import type { PowPayload } from '../schemas/auth';

type AltchaChallenge = Parameters<typeof solveChallengeWorkers>[0]['challenge'];

/**
 * Solves a slider challenge's proof of work in Web Workers (as many as the device has cores, up to 4), off
 * the main thread so the drag stays smooth. This module and its worker are fetched only when a slider
 * opens, so sign-in pages do not carry them. Null when aborted (a new puzzle replaced this one).
 */
export async function solvePow(challenge: PowPayload['challenge'], controller: AbortController): Promise<PowPayload | null> {
  const solution = await solveChallengeWorkers({
    challenge: challenge as unknown as AltchaChallenge,
    concurrency: Math.min(4, Math.max(1, navigator.hardwareConcurrency || 2)),
    controller,
    createWorker: () => new Worker(new URL('./pow-worker.ts', import.meta.url), { type: 'module' }),
  });
  return solution ? { challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } } : null;
}
