import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8799);

// These specs run the operator CLI, which writes the server's local D1 from a second process (`wrangler d1
// execute --local`). SQLite lets one writer in at a time and workerd does not wait for the lock, so a page's write
// that meets the CLI's fails with SQLITE_BUSY. They run after every other spec, one at a time.
const specsWritingTheDatabase = ['**/ops-auth.spec.ts', '**/oidc.spec.ts', '**/screenshots.spec.ts'];

/** End-to-end: Debian's Chromium against the built Worker under `wrangler dev` (npm run build first). */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // The screenshot tour (tests/e2e/screenshots.spec.ts) runs only when asked for: SCREENSHOTS=1.
  grepInvert: process.env.SCREENSHOTS ? undefined : /@screenshots/,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    },
    trace: 'off',
  },
  projects: [
    { name: 'portal', testIgnore: specsWritingTheDatabase },
    { name: 'operator-cli', testMatch: specsWritingTheDatabase, dependencies: ['portal'], workers: 1 },
  ],
  webServer: {
    command: 'node scripts/serve-e2e.mjs',
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
