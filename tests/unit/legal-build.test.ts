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
/** What the content collection and the Markdown step need, copied as they are. */
const LEGAL_BUILD_FILES = [
  'content/legal',
  'src/content.config.ts',
  'src/lib/legal.ts',
  'src/lib/legal-values.ts',
  'scripts/legal-source.ts',
  'scripts/legal-values-plugin.ts',
];

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'legal-build-'));
  for (const path of LEGAL_BUILD_FILES) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    cpSync(join(root, path), join(project, path), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
  // The site's Markdown step; a cache of its own, so that no build here leaves rendered texts in the project's.
  writeFileSync(
    join(project, 'astro.config.mjs'),
    "import { legalMarkdownProcessor } from './scripts/legal-values-plugin.ts';\n" +
      "export default { output: 'static', cacheDir: './cache', markdown: { processor: legalMarkdownProcessor() } };\n",
  );
  mkdirSync(join(project, 'src/pages'), { recursive: true });
  writeFileSync(
    join(project, 'src/pages/index.astro'),
    "---\nimport { getCollection } from 'astro:content';\nconst texts = await getCollection('legal');\n---\n<p>{texts.length}</p>\n" +
      '{texts.map((text) => <section id={text.id} set:html={text.rendered?.html} />)}\n',
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs the build in the temporary project; returns its exit status and everything it printed. */
function build(env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, PORTAL_BUILD: '', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
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

  it('fails on an unknown {{name}}, naming the file and the name', () => {
    rmSync(join(project, 'content/legal'), { recursive: true });
    cpSync(join(root, 'content/legal'), join(project, 'content/legal'), { recursive: true });
    edit('content/legal/en/disclaimer.md', (text) => text.replace('{{supportContact}}', '{{supportContacts}}'));
    const { status, output } = build();
    expect(status).not.toBe(0);
    expect(output).toContain('content/legal/en/disclaimer.md: {{supportContacts}} is not a known value');
  });

  it('shows placeholders in a local build; fails a production build naming every file and pending field', () => {
    edit('content/legal/en/disclaimer.md', (text) => text.replace('{{supportContacts}}', '{{supportContact}}'));
    const local = build();
    expect(local.status, local.output).toBe(0);
    const page = readFileSync(join(project, 'dist/index.html'), 'utf8');
    expect(page).toContain('本平台由【运营主体名称，待法务确认】（以下简称“我们”）运营');
    expect(page).toContain('The Platform is operated by [operator legal name, to be confirmed by legal] (“we”, “us”)');

    const { status, output } = build({ PORTAL_BUILD: 'production' });
    expect(status).not.toBe(0);
    expect(output).toContain('a production build needs every value the legal texts refer to; fill these in content/legal/operator.yaml');
    for (const lang of ['zh', 'en']) {
      expect(output).toContain(`content/legal/${lang}/disclaimer.md: supportContact\n`);
      expect(output).toContain(`content/legal/${lang}/registration.md: reviewDays, supportContact\n`);
      expect(output).toMatch(new RegExp(`content/legal/${lang}/terms\\.md: operatorName, .*comGoverningLaw, comDisputeForum`));
    }
  });

  it('passes a production build once every value is filled, with the values in the texts', () => {
    const values = readFileSync(join(project, 'content/legal/operator.yaml'), 'utf8').replace(
      /^(\s*)(\w+): null$/gm,
      (_, indent: string, key: string) => `${indent}${key}: ${key === 'zh' ? '示例值' : 'Value'}-${indent.length ? 'lang' : 'both'}`,
    );
    writeFileSync(join(project, 'content/legal/operator.yaml'), values);
    const { status, output } = build({ PORTAL_BUILD: 'production' });
    expect(status, output).toBe(0);
    const page = readFileSync(join(project, 'dist/index.html'), 'utf8');
    expect(page).toContain('本平台由示例值-lang（以下简称“我们”）运营');
    expect(page).toContain('The Platform is operated by Value-lang (“we”, “us”)');
    expect(page).toContain('我们通常在 Value-both 个工作日内完成审核');
    expect(page).not.toMatch(/\{\{|to be confirmed|待法务确认/);
  });
}, 90_000);
