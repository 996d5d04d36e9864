import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { markdownToHtml } from 'satteri';
import { stringify } from 'yaml';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { legalDocs, legalFile, legalLangs, type LegalLang } from '../../src/lib/legal';
import {
  checkLegalValues,
  LEGAL_VALUES_FILE,
  legalBuildMode,
  legalValueNames,
  legalValueNamesIn,
  legalValuePlaceholder,
  type LegalValueName,
} from '../../src/lib/legal-values';
import { checkLegalValuesIn, listLegalFiles, parseLegalSource, readLegalValues } from '../../scripts/legal-source';
import { legalValuesPlugin } from '../../scripts/legal-values-plugin';

/**
 * A temporary project holding content/legal/ (the four texts in both languages, each using some values, and an
 * operator.yaml), so the checks read real files without touching the working tree's own.
 */
const root = mkdtempSync(join(tmpdir(), 'legal-values-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Which values each fixture text uses (terms uses two, so that a production failure has a list to name). */
const uses: Record<(typeof legalDocs)[number], LegalValueName[]> = {
  terms: ['operatorName', 'supportContact'],
  privacy: ['privacyContact'],
  disclaimer: ['supportContact'],
  registration: ['reviewDays'],
};
function writeText(lang: LegalLang, doc: (typeof legalDocs)[number], body: string) {
  const file = join(root, legalFile(lang, doc));
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `---\ntitle: ${doc}\nversion: '1.0.0'\neffectiveDate: '2026-12-01'\n---\n\n${body}\n`);
}
function writeValues(values: Partial<Record<LegalValueName, unknown>>) {
  const all = Object.fromEntries(legalValueNames.map((name) => [name, null]));
  writeFileSync(join(root, LEGAL_VALUES_FILE), stringify({ ...all, ...values }));
}
/** Every value filled in: per language for the name, one for both for the rest. */
const filled = Object.fromEntries(
  legalValueNames.map((name) => [name, name === 'operatorName' ? { zh: '示例航运有限公司', en: 'Example Shipping Ltd.' } : `${name}-value`]),
);

beforeEach(() => {
  for (const lang of legalLangs) {
    for (const doc of legalDocs) writeText(lang, doc, uses[doc].map((name) => `Value: {{${name}}}.`).join('\n\n'));
  }
  writeValues({});
});

/** The HTML the site's Markdown step makes of a text, rendered as the file at `file` in the fixture. */
async function render(file: string, markdown: string, values = readLegalValues(root)) {
  const { html } = await markdownToHtml(markdown, {
    mdastPlugins: [legalValuesPlugin(values)],
    fileURL: pathToFileURL(join(root, file)),
  });
  return html;
}
/** The message a call throws, or '' when it does not. */
function problemWith(run: () => unknown): string {
  try {
    run();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the Markdown plugin', () => {
  it('fills each value in the language of the file', async () => {
    writeValues(filled);
    const text = 'Operated by {{operatorName}} (**{{operatorName}}**); write to [us, {{supportContact}}](/terms).';
    const zh = await render(legalFile('zh', 'terms'), text);
    const en = await render(legalFile('en', 'terms'), text);
    expect(zh).toBe(
      '<p>Operated by 示例航运有限公司 (<strong>示例航运有限公司</strong>); write to <a href="/terms">us, supportContact-value</a>.</p>\n',
    );
    expect(en).toBe(
      '<p>Operated by Example Shipping Ltd. (<strong>Example Shipping Ltd.</strong>); write to <a href="/terms">us, supportContact-value</a>.</p>\n',
    );
  });

  it('shows the placeholder in the file language while a value is pending, per language', async () => {
    writeValues({ operatorName: { zh: null, en: 'Example Shipping Ltd.' } });
    expect(await render(legalFile('zh', 'privacy'), '由{{operatorName}}运营')).toBe('<p>由【运营主体名称，待法务确认】运营</p>\n');
    expect(await render(legalFile('en', 'privacy'), 'By {{operatorName}}.')).toBe('<p>By Example Shipping Ltd..</p>\n');
    expect(await render(legalFile('en', 'privacy'), 'Ask {{privacyContact}}.')).toBe('<p>Ask [privacy contact, to be confirmed by legal].</p>\n');
    expect(legalValuePlaceholder('liabilityCap', 'zh')).toBe('【金额，待法务确认】');
  });

  it('inserts a value as text: nothing in it is read as Markdown or HTML', async () => {
    writeValues({ operatorName: '<img src=x onerror=alert(1)> *Example* [Ltd](javascript:alert(1)) & Co' });
    expect(await render(legalFile('en', 'terms'), '{{operatorName}}')).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt; *Example* [Ltd](javascript:alert(1)) &amp; Co</p>\n',
    );
  });

  it('fails on an unknown name, naming the file and the name', async () => {
    await expect(render(legalFile('zh', 'registration'), '见{{operatorNme}}。')).rejects.toThrow(
      'content/legal/zh/registration.md: {{operatorNme}} is not a known value',
    );
  });

  it('leaves Markdown outside content/legal alone', async () => {
    expect(await render('docs/en/terms.md', '{{operatorName}}')).toBe('<p>{{operatorName}}</p>\n');
  });
});

describe('the build check of the texts against operator.yaml', () => {
  it('names the file and every unknown name in any build', () => {
    writeText('en', 'privacy', 'Ask {{privacyContact}} or {{privacyEmail}} or {{ operatorName }}.');
    for (const mode of ['local', 'production'] as const) {
      expect(problemWith(() => checkLegalValuesIn(root, mode))).toBe(
        `content/legal/en/privacy.md: {{privacyEmail}}, {{ operatorName }} are not known values (known: ${legalValueNames.join(', ')})`,
      );
    }
  });

  it('lets a local or staging build through with placeholders, listing what is pending', () => {
    writeValues({ supportContact: 'help@example.com' });
    for (const mode of ['local', 'staging'] as const) {
      const pending = checkLegalValuesIn(root, mode);
      expect(pending).toContain('content/legal/zh/terms.md: operatorName');
      expect(pending).toContain('content/legal/en/registration.md: reviewDays');
      expect(pending.join('\n')).not.toMatch(/disclaimer|supportContact/);
    }
  });

  it('fails a production build naming each file and each pending field, then passes once all are filled', () => {
    writeValues({ ...filled, operatorName: { zh: '示例航运有限公司', en: null }, supportContact: null, reviewDays: null });
    const message = problemWith(() => checkLegalValuesIn(root, 'production'));
    expect(message.split('\n')).toEqual([
      'a production build needs every value the legal texts refer to; fill these in content/legal/operator.yaml (null means pending):',
      'content/legal/en/disclaimer.md: supportContact',
      'content/legal/en/registration.md: reviewDays',
      'content/legal/en/terms.md: operatorName, supportContact',
      'content/legal/zh/disclaimer.md: supportContact',
      'content/legal/zh/registration.md: reviewDays',
      'content/legal/zh/terms.md: supportContact',
      'content/legal/operator.yaml: operatorName.en, supportContact, reviewDays',
    ]);

    // A value no text uses yet is still named: a production build needs the file complete.
    writeValues({ ...filled, comDisputeForum: { zh: '上海仲裁委员会', en: null } });
    expect(problemWith(() => checkLegalValuesIn(root, 'production')).split('\n').slice(1)).toEqual([
      'content/legal/operator.yaml: comDisputeForum.en',
    ]);

    writeValues({ ...filled, reviewDays: 5 });
    expect(checkLegalValuesIn(root, 'production')).toEqual([]);
    expect(readLegalValues(root).reviewDays).toEqual({ zh: '5', en: '5' });
  });
});

describe('operator.yaml is checked, naming the file and the field', () => {
  const problem = (data: unknown) => problemWith(() => checkLegalValues(LEGAL_VALUES_FILE, data));
  const all = Object.fromEntries(legalValueNames.map((name) => [name, null]));

  it('accepts pending values, one value for both languages, or one per language', () => {
    expect(problem(all)).toBe('');
    expect(checkLegalValues(LEGAL_VALUES_FILE, { ...all, legalContact: ' legal@example.com ' }).legalContact).toEqual({
      zh: 'legal@example.com',
      en: 'legal@example.com',
    });
  });

  it.each([
    ['a missing field', (({ operatorAddress: _, ...rest }) => rest)(all), 'field "operatorAddress" is missing: write null while it is pending'],
    ['a misspelt field', { ...all, operatorNmae: 'X' }, 'has unknown field(s) "operatorNmae"'],
    ['an empty value', { ...all, supportContact: '  ' }, 'field "supportContact" must not be empty: write null while it is pending'],
    ['a placeholder kept as a value', { ...all, operatorName: { zh: '【运营主体名称，待法务确认】', en: null } }, 'field "operatorName.zh" still reads like a placeholder'],
    ['"TBD"', { ...all, liabilityCap: 'TBD' }, 'field "liabilityCap" still reads like a placeholder'],
    ['one language missing', { ...all, comDataRegion: { zh: '新加坡' } }, 'field "comDataRegion.en" is missing'],
    ['a third language', { ...all, comDataRegion: { zh: null, en: null, fr: null } }, 'field "comDataRegion" has unknown language(s) "fr" (zh and en only)'],
    ['a list', { ...all, legalContact: ['a@example.com'] }, 'field "legalContact" must be text, null while it is pending, or zh: and en:'],
    ['a file that is not a list of fields', 'operatorName', 'must be a list of fields'],
  ])('rejects %s', (_, data, message) => {
    expect(problem(data)).toMatch(new RegExp(`^content/legal/operator\\.yaml: .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('names the file when it is not YAML or is missing', () => {
    writeFileSync(join(root, LEGAL_VALUES_FILE), 'operatorName: [unclosed\n');
    expect(problemWith(() => readLegalValues(root))).toMatch(/^content\/legal\/operator\.yaml: not valid YAML/);
    rmSync(join(root, LEGAL_VALUES_FILE));
    expect(problemWith(() => readLegalValues(root))).toBe('content/legal/operator.yaml: missing');
  });
});

describe('the build mode', () => {
  it('is local unless PORTAL_BUILD says staging or production, and a misspelt mode fails', () => {
    expect(legalBuildMode({})).toBe('local');
    expect(legalBuildMode({ PORTAL_BUILD: '' })).toBe('local');
    expect(legalBuildMode({ PORTAL_BUILD: 'staging' })).toBe('staging');
    expect(legalBuildMode({ PORTAL_BUILD: 'production' })).toBe('production');
    expect(problemWith(() => legalBuildMode({ PORTAL_BUILD: 'prod' }))).toBe(
      'PORTAL_BUILD must be one of local, staging, production (got "prod")',
    );
  });

  it('is set by the deploy scripts: production for npm run deploy, staging for npm run deploy:staging', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.deploy).toMatch(/^PORTAL_BUILD=production npm run build && /);
    expect(scripts['deploy:staging']).toMatch(/^PORTAL_BUILD=staging npm run build && /);
    expect(scripts.build).toMatch(/^node scripts\/legal-versions\.mjs && /);
  });
});

describe('content/legal as it is', () => {
  it('refers to known values only, and keeps no placeholder in the texts themselves', () => {
    const used = new Set<string>();
    for (const file of listLegalFiles()) {
      const { body } = parseLegalSource(file, readFileSync(file, 'utf8'));
      expect(body, file).not.toMatch(/to be confirmed|待法务确认|【/);
      for (const name of legalValueNamesIn(body)) used.add(name);
    }
    expect([...used].sort()).toEqual([...legalValueNames].sort());
    expect(() => checkLegalValuesIn('.', 'local')).not.toThrow();
  });
});
