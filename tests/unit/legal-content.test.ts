import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { legalVersions } from '../../functions/gateway/generated/legal-versions';
import { en } from '../../src/i18n/en';
import { zh } from '../../src/i18n/zh';
import { langs } from '../../src/lib/lang';
import {
  checkLegalFrontMatter,
  checkLegalPairs,
  checkLegalVersions,
  legalDocs,
  legalFile,
  legalLangs,
  legalDocForPath,
  legalPaths,
  legalShell,
  type LegalEntry,
} from '../../src/lib/legal';
import { pageShells, shellForPath } from '../../src/lib/routes';
import { LEGAL_VERSIONS_MODULE, legalVersionsModule, parseLegalSource, readLegalContent } from '../../scripts/legal-source';

const good = "---\ntitle: Terms\nversion: '1.0.0'\neffectiveDate: '2026-12-01'\n---\n\nText.\n";
const file = 'content/legal/en/terms.md';
/** The message parseLegalSource throws for a source, or '' when it accepts it. */
function problemWith(source: string): string {
  try {
    parseLegalSource(file, source);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('content/legal as it is', () => {
  const { entries, versions } = readLegalContent();

  it('has every document in both languages, each with valid front matter', () => {
    expect(entries.map((e) => e.file).sort()).toEqual(legalLangs.flatMap((lang) => legalDocs.map((doc) => legalFile(lang, doc))).sort());
    for (const entry of entries) {
      expect(entry.data.title, entry.file).toMatch(/\S/);
      if (entry.lang === 'zh') expect(entry.data.title, entry.file).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('holds real texts, not placeholders', () => {
    for (const entry of entries) {
      const { body } = parseLegalSource(entry.file, readFileSync(entry.file, 'utf8'));
      expect(body.length, entry.file).toBeGreaterThan(entry.lang === 'zh' ? 800 : 2000);
      expect(body, entry.file).not.toMatch(/lorem ipsum/i);
      expect((body.match(/^## /gm) ?? []).length, entry.file).toBeGreaterThanOrEqual(6);
    }
  });

  it('matches the generated versions the gateway serves (run `npm run build` when this fails)', () => {
    expect(legalVersions).toEqual(versions);
    expect(readFileSync(LEGAL_VERSIONS_MODULE, 'utf8')).toBe(legalVersionsModule(versions));
  });

  it('uses the interface languages', () => {
    expect([...legalLangs]).toEqual([...langs]);
  });
});

describe('front matter checks name the file and the field', () => {
  it('accepts a good file', () => {
    expect(problemWith(good)).toBe('');
  });

  it.each([
    ['a missing title', good.replace('title: Terms\n', ''), /^content\/legal\/en\/terms\.md: front matter field "title" is missing/],
    ['an empty title', good.replace('title: Terms', "title: ''"), /"title" must not be empty/],
    ['a missing version', good.replace("version: '1.0.0'\n", ''), /content\/legal\/en\/terms\.md: .*"version" is missing/],
    ['a version that YAML reads as a number', good.replace("'1.0.0'", '1.1'), /"version" must be text/],
    ['a malformed version', good.replace("'1.0.0'", "'v1'"), /"version" must look like '1\.0\.0'/],
    ['a missing date', good.replace("effectiveDate: '2026-12-01'\n", ''), /"effectiveDate" is missing/],
    ['an impossible date', good.replace('2026-12-01', '2026-02-30'), /"effectiveDate" must be a real date .*2026-02-30/],
    ['an impossible unquoted date', good.replace("'2026-12-01'", '2026-13-01'), /"effectiveDate" must be a real date .*2026-13-01/],
    ['a date in another format', good.replace('2026-12-01', '01/12/2026'), /"effectiveDate" must be a real date/],
  ])('rejects %s', (_, source, message) => {
    expect(problemWith(source)).toMatch(message);
  });

  it('reads an unquoted date as written', () => {
    expect(parseLegalSource(file, good.replace("'2026-12-01'", '2026-12-01')).data.effectiveDate).toBe('2026-12-01');
  });

  it('rejects a file without front matter, or with broken YAML, naming the file', () => {
    expect(problemWith('# Terms\n')).toMatch(/^content\/legal\/en\/terms\.md: front matter is missing/);
    expect(problemWith('---\ntitle: [unclosed\n---\n')).toMatch(/^content\/legal\/en\/terms\.md: front matter is not valid YAML/);
  });

  it('lists every bad field of a file at once', () => {
    const message = (() => {
      try {
        checkLegalFrontMatter(file, { title: 'T' });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('"version" is missing');
    expect(message).toContain('"effectiveDate" is missing');
  });
});

describe('pairs and versions', () => {
  const all = legalLangs.flatMap((lang) => legalDocs.map((doc) => legalFile(lang, doc)));

  it('accepts the complete set', () => {
    expect(() => checkLegalPairs(all)).not.toThrow();
  });

  it('names the missing counterpart', () => {
    const files = all.filter((f) => f !== 'content/legal/zh/privacy.md');
    expect(() => checkLegalPairs(files)).toThrow(
      'content/legal/zh/privacy.md: missing, but its counterpart content/legal/en/privacy.md exists',
    );
  });

  it('names a document missing in both languages, and a file that is no known document', () => {
    expect(() => checkLegalPairs(all.filter((f) => !f.endsWith('/disclaimer.md')))).toThrow('content/legal/zh/disclaimer.md: missing');
    expect(() => checkLegalPairs([...all, 'content/legal/en/cookies.md'])).toThrow('content/legal/en/cookies.md: not a known legal document');
  });

  it('requires both languages of a document to share version and effective date', () => {
    const entry = (lang: 'zh' | 'en', version: string): LegalEntry => ({
      file: legalFile(lang, 'terms'),
      lang,
      doc: 'terms',
      data: { title: 't', version, effectiveDate: '2026-12-01' },
    });
    expect(checkLegalVersions([entry('zh', '1.1.0'), entry('en', '1.1.0')])).toEqual({ terms: '1.1.0' });
    expect(() => checkLegalVersions([entry('zh', '1.1.0'), entry('en', '1.0.0')])).toThrow(
      'content/legal/en/terms.md: front matter field "version" is "1.0.0" but content/legal/zh/terms.md has "1.1.0"',
    );
  });
});

describe('legal routes', () => {
  it('serve each document at its exact path, apart from the app routes', () => {
    expect(legalDocForPath('/terms')).toBe('terms');
    expect(legalDocForPath('/registration_agreement')).toBe('registration');
    expect(legalDocForPath('/terms/')).toBeUndefined();
    expect(legalDocForPath('/registration')).toBeUndefined();
    expect(legalShell('privacy')).toBe('legal/privacy');
    for (const doc of legalDocs) {
      expect(shellForPath(legalPaths[doc])).toBeUndefined();
      expect(pageShells as readonly string[]).not.toContain(legalPaths[doc].slice(1));
    }
  });

  it('have a name for every document in both dictionaries', () => {
    for (const doc of legalDocs) {
      expect(en.legal.docs[doc]).toMatch(/\w/);
      expect(zh.legal.docs[doc]).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
