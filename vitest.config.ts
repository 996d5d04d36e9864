import { defineConfig } from 'vitest/config';

/**
 * Unit tests (pure code) and function tests (the Worker's Hono apps on a real local D1 through wrangler).
 *
 * Function tests start the platform once per run: global-setup.ts migrates one template D1, and each file's
 * startWorkerEnv copies it (tests/functions/worker-env.ts). The files of one test process share its module
 * graph (`isolate: false`), so wrangler, miniflare, the Worker's code and the breaker bundle load once per
 * process, not once per file; every file still has its own D1, R2 and Durable Objects. setup-file.ts puts back
 * what a file changed on shared globals (spies on console, fetch, crypto).
 */
export default defineConfig({
  test: {
    // Function tests mostly wait on workerd (another process): three at a time keep both cores busy, where
    // vitest's default on two cores (one) left one idle. Measured: 250 s with one, 164 s with three, 169 s with four.
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'functions',
          include: ['tests/functions/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/functions/global-setup.ts'],
          setupFiles: ['tests/functions/setup-file.ts'],
          isolate: false,
        },
      },
    ],
  },
});
