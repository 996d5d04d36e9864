import { langs, type Lang } from './lang';

/** getStaticPaths for every page: one shell per interface language. */
export function localePaths() {
  return langs.map((locale) => ({ params: { locale } }));
}

export type LocaleParams = { locale: Lang };
