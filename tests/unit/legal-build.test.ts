import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A real `astro build` of the content collection against broken legal texts, in a separate temporary copy
 * of the few files it needs (the working tree's own content is never touched), so that what an editor
 * sees when a build fails is tested as it is printed.
 */
const root = resolve('.');
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'legal-build-'));
  for (const path of ['content/legal', 'src/content.config.ts', 'src/lib/legal.ts', 'scripts/legal-source.ts']) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    cpSync(join(root, path), join(project, path), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(project, 'astro.config.mjs'), "export default { output: 'static' };\n");
  mkdirSync(join(project, 'src/pages'), { recursive: true });
  writeFileSync(
    join(project, 'src/pages/index.astro'),
    "---\nimport { getCollection } from 'astro:content';\nconst texts = await getCollection('legal');\n---\n<p>{texts.length}</p>\n",
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs the build in the temporary project; returns its exit status and everything it printed. */
function build() {
  const run = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

function edit(path: string, change: (text: string) => string) {
  const file = join(project, path);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

describe('astro build of content/legal', () => {
  it('passes with the real texts', () => {
    const { status, output } = build();
    expect(status, output).toBe(0);
  });

  it('fails on an impossible date, naming the file and the field', () => {
    edit('content/legal/en/privacy.md', (text) => text.replace(/effectiveDate: .*/, 'effectiveDate: 2026-02-30'));
    const { status, output } = build();
    expect(status).not.toBe(0);
    expect(output).toContain(`content/legal/en/privacy.md: front matter field "effectiveDate" must be a real date`);
  });

  it('fails on a missing field, naming the file and the field', () => {
    edit('content/legal/en/privacy.md', (text) => text.replace(/effectiveDate: .*/, "effectiveDate: '2026-12-01'"));
    edit('content/legal/zh/terms.md', (text) => text.replace(/^version: .*\n/m, ''));
    const { status, output } = build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/legal/zh/terms.md: front matter field "version" is missing');
  });

  it('fails when a text exists in one language only, naming the missing counterpart', () => {
    edit('content/legal/zh/terms.md', (text) => text.replace(/^title: /m, "version: '1.0.0'\ntitle: "));
    rmSync(join(project, 'content/legal/zh/disclaimer.md'));
    const { status, output } = build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/legal/zh/disclaimer.md: missing, but its counterpart content/legal/en/disclaimer.md exists');
  });
}, 90_000);
