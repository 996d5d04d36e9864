import { afterAll, vi } from 'vitest';

/**
 * Runs before each function test file. The files of a process share their modules (vitest.config.ts
 * `isolate: false`), so what a file does to shared globals must not outlive it: its spies (console, fetch,
 * crypto.subtle) and fake timers are put back after its last test.
 */
afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
