import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8799);

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
  webServer: {
    command: 'node scripts/serve-e2e.mjs',
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
