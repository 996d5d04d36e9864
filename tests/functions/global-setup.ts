import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { getPlatformProxy, unstable_splitSqlQuery } from 'wrangler';

declare module 'vitest' {
  interface ProvidedContext {
    /** A persisted local D1 (and empty R2) with every migration applied, copied for each test file. */
    d1Template: string;
  }
}

/**
 * Runs once per `vitest run`, before any function test file: applies every migration to one local D1, the
 * template that startWorkerEnv (worker-env.ts) copies for each file, so that no file replays the migrations.
 */
export default async function setup(project: TestProject) {
  const template = join('.wrangler', 'functions', `template-${process.pid}`);
  rmSync(template, { recursive: true, force: true });
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath: 'wrangler.toml', persist: { path: template } });
  try {
    for (const file of readdirSync('migrations').filter((f) => f.endsWith('.sql')).sort()) {
      const statements = unstable_splitSqlQuery(readFileSync(join('migrations', file), 'utf8'));
      if (statements.length) await proxy.env.DB.batch(statements.map((sql) => proxy.env.DB.prepare(sql)));
    }
  } finally {
    await proxy.dispose();
  }
  project.provide('d1Template', template);
  return () => rmSync(template, { recursive: true, force: true });
}
