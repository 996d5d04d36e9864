import { defineConfig } from '@playwright/test';

const CI = Boolean(process.env.CI);

/**
 * End-to-end: Debian's Chromium against the built Worker (npm run build first). There is no shared server: each
 * worker starts its own `wrangler dev` with its own D1, R2 and Durable Objects (tests/e2e/world.ts, the `server`
 * fixture of tests/e2e/fixtures.ts), so specs run fully parallel, none one at a time, and `--shard` works.
 *
 * In CI a failed test is run once more with a trace; a test that passes only on its retry is reported flaky and
 * the run still fails (failOnFlakyTests). The trace of every failed first attempt is kept under
 * test-results/<test>/trace.zip: `npx playwright show-trace test-results/…/trace.zip`.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // The screenshot tour (tests/e2e/screenshots.spec.ts) runs only when asked for: SCREENSHOTS=1.
  grepInvert: process.env.SCREENSHOTS ? undefined : /@screenshots/,
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: CI ? 1 : 0,
  failOnFlakyTests: CI,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    },
    // The DOM at each step, the network and the console, without the screencast: recording frames for every test
    // cost the 2-core machine minutes. A failure's trace is kept; a passing test's is dropped.
    trace: { mode: CI ? 'retain-on-first-failure' : 'retain-on-failure', screenshots: false },
  },
});
