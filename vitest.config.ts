import { defineConfig } from 'vitest/config';

/** Unit tests (pure code) and function tests (the Worker's Hono apps on a real local D1 through wrangler). */
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/functions/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
