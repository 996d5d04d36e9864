import { z } from 'zod';
import { LEGAL_ROOT, LegalContentError, legalLangs, type LegalLang } from './legal.ts';

// The operator's legal identity and the other values the legal texts refer to as `{{name}}`. Like ./legal,
// this module imports nothing but zod, so that Node runs it as it is (type stripping) before `astro build`.

/** The one file legal editors fill in, relative to the project root. */
export const LEGAL_VALUES_FILE = `${LEGAL_ROOT}/operator.yaml`;

/**
 * Every name a legal text may use as `{{name}}`, with the label its placeholder shows in each language
 * while the value is pending. A new name needs a line here and a key in operator.yaml.
 */
export const legalValueLabels = {
  operatorName: { zh: '运营主体名称', en: 'operator legal name' },
  operatorAddress: { zh: '运营主体地址', en: 'operator address' },
  supportContact: { zh: '客服联系方式', en: 'support contact' },
  privacyContact: { zh: '隐私联系邮箱', en: 'privacy contact' },
  legalContact: { zh: '法务联系邮箱', en: 'legal contact' },
  comDataRegion: { zh: '地区', en: 'region' },
  accountRetention: { zh: '期限', en: 'period' },
  documentRetention: { zh: '期限', en: 'period' },
  reviewDays: { zh: '时限', en: 'time' },
  liabilityCap: { zh: '金额', en: 'amount' },
  comGoverningLaw: { zh: '适用法律', en: 'governing law' },
  comDisputeForum: { zh: '法院或仲裁机构', en: 'forum or arbitration' },
} as const satisfies Record<string, Record<LegalLang, string>>;
export type LegalValueName = keyof typeof legalValueLabels;
export const legalValueNames = Object.keys(legalValueLabels) as LegalValueName[];

/** Each value in each language; null while legal has not confirmed it. */
export type LegalValues = Record<LegalValueName, Record<LegalLang, string | null>>;

/** What a pending value shows in a local or staging build: the bracket text the texts carried before. */
export function legalValuePlaceholder(name: LegalValueName, lang: LegalLang): string {
  const label = legalValueLabels[name][lang];
  return lang === 'zh' ? `【${label}，待法务确认】` : `[${label}, to be confirmed by legal]`;
}

const isKnownName = (name: string): name is LegalValueName => Object.hasOwn(legalValueLabels, name);

// A value is text (a number such as a count of days is taken as written). Text that still reads like a
// placeholder is refused, so that "TBD" cannot pass for a confirmed value in a production build.
const placeholderLike = /待法务确认|to be confirmed|\bTBD\b|\{\{|\}\}/i;
const missingOr = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is missing: write null while it is pending' : expected;
const valueText = z
  .union([z.string(), z.number().transform(String)], { error: missingOr('must be text, or null while it is pending') })
  .pipe(
    z
      .string()
      .trim()
      .min(1, 'must not be empty: write null while it is pending')
      .refine((text) => !placeholderLike.test(text), 'still reads like a placeholder: write null while it is pending'),
  );
const oneValue = valueText.nullable();
const perLanguage = z.strictObject(
  { zh: oneValue, en: oneValue },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `has unknown language(s) ${issue.keys.map((key) => `"${key}"`).join(', ')} (zh and en only)` : undefined) },
);
const isMapping = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
// One value for both languages, or zh: and en:. Picked by shape, so that a problem inside zh: or en: is named
// as such (a plain union would only say that neither shape fits).
const fieldValue = z.unknown().transform((value, ctx) => {
  const result = (isMapping(value) ? perLanguage : oneValue).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const message = Array.isArray(value) ? 'must be text, null while it is pending, or zh: and en: when the wording differs by language' : issue.message;
    ctx.addIssue({ code: 'custom', message, path: issue.path, input: value });
  }
  return z.NEVER;
});
const legalValuesSchema = z.strictObject(
  Object.fromEntries(legalValueNames.map((name) => [name, fieldValue])) as Record<LegalValueName, typeof fieldValue>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(', ')} (known: ${legalValueNames.join(', ')})`
        : 'must be a list of fields, one per value',
  },
);

/**
 * Checks the parsed operator.yaml and gives every value per language. Throws a LegalContentError naming the
 * file and each bad field, e.g. `content/legal/operator.yaml: field "operatorName.en" must not be empty …`.
 */
export function checkLegalValues(file: string, data: unknown): LegalValues {
  const result = legalValuesSchema.safeParse(data ?? {});
  if (!result.success) {
    const problems = result.error.issues.map((issue) =>
      issue.path.length ? `field "${issue.path.join('.')}" ${issue.message}` : issue.message,
    );
    throw new LegalContentError(`${file}: ${problems.join('; ')}`);
  }
  const values = {} as LegalValues;
  for (const name of legalValueNames) {
    const value = result.data[name];
    values[name] = value !== null && typeof value === 'object' ? value : { zh: value, en: value };
  }
  return values;
}

const reference = /\{\{([^{}]*)\}\}/g;

/** The names a text refers to, in order, as written between `{{` and `}}`. */
export function legalValueNamesIn(text: string): string[] {
  return [...text.matchAll(reference)].map((match) => match[1]!);
}

/** Throws naming the file and each `{{name}}` that is not a known value. */
export function checkLegalValueNames(file: string, text: string): void {
  const unknown = [...new Set(legalValueNamesIn(text).filter((name) => !isKnownName(name)))];
  if (unknown.length) {
    throw new LegalContentError(
      `${file}: ${unknown.map((name) => `{{${name}}}`).join(', ')} ${unknown.length > 1 ? 'are not known values' : 'is not a known value'} (known: ${legalValueNames.join(', ')})`,
    );
  }
}

/**
 * Replaces every `{{name}}` in a piece of text with its value in the file's language, or with the placeholder
 * while it is pending. Throws naming the file and the name for an unknown one.
 */
export function fillLegalValues(text: string, file: string, lang: LegalLang, values: LegalValues): string {
  checkLegalValueNames(file, text);
  return text.replace(reference, (_, name: LegalValueName) => values[name][lang] ?? legalValuePlaceholder(name, lang));
}

/** How a build treats pending values: local and staging builds show placeholders, a production build fails. */
export const legalBuildModes = ['local', 'staging', 'production'] as const;
export type LegalBuildMode = (typeof legalBuildModes)[number];
export const LEGAL_BUILD_ENV = 'PORTAL_BUILD';

/** The build mode from PORTAL_BUILD (unset: local). A misspelt mode fails rather than letting placeholders through. */
export function legalBuildMode(env: Record<string, string | undefined>): LegalBuildMode {
  const raw = env[LEGAL_BUILD_ENV];
  if (raw === undefined || raw === '') return 'local';
  if ((legalBuildModes as readonly string[]).includes(raw)) return raw as LegalBuildMode;
  throw new LegalContentError(`${LEGAL_BUILD_ENV} must be one of ${legalBuildModes.join(', ')} (got ${JSON.stringify(raw)})`);
}

/** One legal text as the values checks see it. */
export interface LegalText {
  file: string;
  lang: LegalLang;
  body: string;
}

/**
 * Every pending value, named where it matters: per text, the names it uses that have no value in its language,
 * and in operator.yaml each field still null (`name.lang` when only one language is; also those no text uses
 * yet). Empty when all are filled.
 */
export function pendingLegalValues(values: LegalValues, texts: readonly LegalText[]): string[] {
  const lines: string[] = [];
  for (const { file, lang, body } of texts) {
    const pending = [...new Set(legalValueNamesIn(body))].filter((name) => isKnownName(name) && values[name][lang] === null);
    if (pending.length) lines.push(`${file}: ${pending.join(', ')}`);
  }
  const fields = legalValueNames.flatMap((name) => {
    const langs = legalLangs.filter((lang) => values[name][lang] === null);
    return langs.length === legalLangs.length ? [name] : langs.map((lang) => `${name}.${lang}`);
  });
  if (fields.length) lines.push(`${LEGAL_VALUES_FILE}: ${fields.join(', ')}`);
  return lines;
}

/**
 * Checks every text's names, and in a production build that no value is pending. Throws naming each file and
 * field; returns the pending lines otherwise (for a local or staging build to mention).
 */
export function checkLegalValueUses(values: LegalValues, texts: readonly LegalText[], mode: LegalBuildMode): string[] {
  for (const { file, body } of texts) checkLegalValueNames(file, body);
  const pending = pendingLegalValues(values, texts);
  if (mode === 'production' && pending.length) {
    throw new LegalContentError(
      [
        `a production build needs every value the legal texts refer to; fill these in ${LEGAL_VALUES_FILE} (null means pending):`,
        ...pending,
      ].join('\n'),
    );
  }
  return pending;
}
