import * as z from 'zod/mini';

// This module imports nothing but zod, so that Node can run it as it is (type stripping) from
// scripts/legal-versions.mjs, and the Worker can import the document list without a YAML parser. zod/mini, not
// classic zod: the Worker bundles this module, and classic zod would add ~500 KB to it.

/** The legal documents: one Markdown file per document and language under content/legal/{zh,en}/. */
export const legalDocs = ['terms', 'privacy', 'disclaimer', 'registration'] as const;
export type LegalDoc = (typeof legalDocs)[number];

/** The languages every document must exist in (the same as `langs` in ./lang; a unit test keeps them equal). */
export const legalLangs = ['zh', 'en'] as const;
export type LegalLang = (typeof legalLangs)[number];

/** Where the texts live, relative to the project root. */
export const LEGAL_ROOT = 'content/legal';

/**
 * The exact path a person opens for each document. The visitor's language (LANG cookie, else the host)
 * picks the text, or `?lang=zh|en` for a framed agreement that must show one language.
 */
export const legalPaths: Readonly<Record<LegalDoc, string>> = {
  terms: '/terms',
  privacy: '/privacy',
  disclaimer: '/disclaimer',
  registration: '/registration_agreement',
};

/** The project-relative file of one document in one language, as error messages name it. */
export function legalFile(lang: LegalLang, doc: LegalDoc): string {
  return `${LEGAL_ROOT}/${lang}/${doc}.md`;
}

/** A page URL (absolute path) that shows the document in the given language whatever the visitor's cookie. */
export function legalUrl(doc: LegalDoc, lang: LegalLang): string {
  return `${legalPaths[doc]}?lang=${lang}`;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date that exists: 2026-02-30 does not. */
function isRealDate(value: string): boolean {
  if (!isoDate.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const missingOr = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is missing' : `${expected} (got ${JSON.stringify(issue.input) ?? String(issue.input)})`;

/**
 * The front matter of a legal text. `version` is what people agree to: raising it asks every signed-in
 * person to agree again (terms). Dates are strings: the YAML reader used for legal texts keeps
 * `2026-11-01` as written, so an impossible date cannot silently roll over into another month.
 */
export const legalFrontMatterSchema = z.object({
  title: z.string({ error: missingOr('must be text') }).check(z.trim(), z.minLength(1, 'must not be empty')),
  version: z
    .string({ error: missingOr("must be text like '1.0.0' (put it in quotes)") })
    .check(z.regex(/^\d+\.\d+\.\d+$/, "must look like '1.0.0' (major.minor.patch)")),
  effectiveDate: z
    .string({ error: missingOr("must be a date written as 'YYYY-MM-DD'") })
    .check(z.refine(isRealDate, { error: (issue) => `must be a real date written as 'YYYY-MM-DD' (got ${JSON.stringify(issue.input)})` })),
});
export type LegalFrontMatter = z.infer<typeof legalFrontMatterSchema>;

/** Raised for any content problem; the message always starts with the file it is about. */
export class LegalContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LegalContentError';
  }
}

/**
 * Checks one file's front matter. Throws a LegalContentError naming the file and each bad field,
 * e.g. `content/legal/en/terms.md: front matter field "effectiveDate" must be a real date …`.
 */
export function checkLegalFrontMatter(file: string, data: unknown): LegalFrontMatter {
  const result = legalFrontMatterSchema.safeParse(data ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `front matter field "${issue.path.join('.') || '(root)'}" ${issue.message}`);
  throw new LegalContentError(`${file}: ${problems.join('; ')}`);
}

/**
 * Checks that the files (project-relative paths such as `content/legal/en/terms.md`) are exactly the
 * known documents in every language. Throws naming the missing counterpart, or the unknown file.
 */
export function checkLegalPairs(files: readonly string[]): void {
  const present = new Set(files.map((file) => file.replaceAll('\\', '/')));
  const known = new Set<string>(legalLangs.flatMap((lang) => legalDocs.map((doc) => legalFile(lang, doc))));
  const problems: string[] = [];
  for (const file of present) {
    if (!known.has(file)) {
      problems.push(`${file}: not a known legal document (expected ${legalDocs.map((d) => `${d}.md`).join(', ')} in ${legalLangs.join('/')}/)`);
    }
  }
  for (const doc of legalDocs) {
    const have = legalLangs.filter((lang) => present.has(legalFile(lang, doc)));
    for (const lang of legalLangs) {
      if (have.includes(lang)) continue;
      problems.push(
        have.length
          ? `${legalFile(lang, doc)}: missing, but its counterpart ${legalFile(have[0]!, doc)} exists: every legal text needs both languages`
          : `${legalFile(lang, doc)}: missing: the portal links to this document`,
      );
    }
  }
  if (problems.length) throw new LegalContentError(problems.join('\n'));
}

/** One parsed document: its file, language, name and checked front matter. */
export interface LegalEntry {
  file: string;
  lang: LegalLang;
  doc: LegalDoc;
  data: LegalFrontMatter;
}

/**
 * Both languages of a document describe the same agreement, so they must carry the same version and
 * effective date. Returns the version of each document; throws naming both files and the field.
 */
export function checkLegalVersions(entries: readonly LegalEntry[]): Record<LegalDoc, string> {
  const versions = {} as Record<LegalDoc, string>;
  const problems: string[] = [];
  for (const doc of legalDocs) {
    const [first, ...others] = entries.filter((entry) => entry.doc === doc);
    if (!first) continue;
    versions[doc] = first.data.version;
    for (const other of others) {
      for (const field of ['version', 'effectiveDate'] as const) {
        if (other.data[field] !== first.data[field]) {
          problems.push(
            `${other.file}: front matter field "${field}" is ${JSON.stringify(other.data[field])} but ${first.file} has ${JSON.stringify(first.data[field])}: both languages must agree`,
          );
        }
      }
    }
  }
  if (problems.length) throw new LegalContentError(problems.join('\n'));
  return versions;
}

/** `content/legal/en/terms.md` → its language and document, when it is one of ours. */
export function parseLegalFile(file: string): { lang: LegalLang; doc: LegalDoc } | undefined {
  const match = /(?:^|\/)(zh|en)\/([a-z_]+)\.md$/.exec(file.replaceAll('\\', '/'));
  if (!match) return undefined;
  const [, lang, doc] = match;
  return (legalDocs as readonly string[]).includes(doc!) ? { lang: lang as LegalLang, doc: doc as LegalDoc } : undefined;
}

// Legal pages: content/legal/{zh,en}/*.md, pre-rendered as `/{lang}/legal/{doc}.html`. Here, not in routes.ts:
// every island imports routes.ts, and this module brings zod with it.
export type LegalShell = `legal/${LegalDoc}`;

/** Path → legal document: `/terms`, `/privacy`, `/disclaimer`, `/registration_agreement`; exact, like every route. */
export function legalDocForPath(pathname: string): LegalDoc | undefined {
  return legalDocs.find((doc) => legalPaths[doc] === pathname);
}

/** The shell file of a legal page (`legal/terms`), served like any other shell. */
export function legalShell(doc: LegalDoc): LegalShell {
  return `legal/${doc}`;
}
