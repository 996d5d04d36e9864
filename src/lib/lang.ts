/** Interface languages and how the edge picks one: the LANG cookie; without one, the host decides. */
export const langs = ['zh', 'en'] as const;
export type Lang = (typeof langs)[number];

export const LANG_COOKIE = 'LANG';
/** Language and port-type cookies live 863,999 s (ten days less a second: a platform constant, portal-spec.md §9). */
export const LANG_COOKIE_MAX_AGE = 863_999;

export function isLang(value: unknown): value is Lang {
  return value === 'zh' || value === 'en';
}

export interface LangDefaults {
  /** Language for hosts that match none of the suffixes. */
  defaultLang: Lang;
  /** Host suffixes (such as `.cn`) whose visitors get Chinese when they have no cookie. */
  zhHostSuffixes: readonly string[];
}

/** The cookie wins when it holds a known language; any other value is ignored. */
export function chooseLang(cookieValue: string | undefined, hostname: string, defaults: LangDefaults): Lang {
  if (isLang(cookieValue)) return cookieValue;
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return defaults.zhHostSuffixes.some((suffix) => host.endsWith(suffix)) ? 'zh' : defaults.defaultLang;
}

/** A list as the language writes it in running text: 港口挂靠、燃油加注 in Chinese, "Port calls, Bunkering" in English. */
export const joinList = (lang: Lang, items: readonly string[]) => items.join(lang === 'zh' ? '、' : ', ');

/** Sentences one after another: Chinese sets none between them (its 。 is full width), English a space. */
export const joinSentences = (lang: Lang, sentences: readonly string[]) => sentences.filter(Boolean).join(lang === 'zh' ? '' : ' ');
