import type { Messages } from '../../i18n';
import type { ClosingWords } from '../shared/ClosingBanner';

/**
 * The user center's words in two parts (issue 31). The island's props carry only what its first screen and its
 * own notices say; the lower sections' words (Security, passkeys, two-step, connected apps, linked accounts, account
 * activity, your data, API clients, event webhooks) are in the page once, as JSON (`<script type="application/json">`, which the
 * browser does not parse as markup or run), read when the first of those parts mounts. In the props every word
 * was HTML-escaped and wrapped for Astro's props, about 30 KB more of the page to parse before the first paint.
 */
export type FirstWords = Pick<Messages, 'userCenter' | 'account' | 'errors' | 'companyTypes' | 'statuses' | 'common' | 'linkSignIn' | 'members' | 'stepUp'> & {
  security: Pick<Messages['security'], 'title'>;
  dataRights: ClosingWords;
};
export type LaterWords = Pick<Messages, 'security' | 'passkeys' | 'twoStep' | 'accountActivity' | 'actionNames' | 'dataRights' | 'connect' | 'apiClients' | 'wechat' | 'grants' | 'webhooks' | 'companySso'>;
export type AllWords = Omit<FirstWords, keyof LaterWords> & LaterWords;

/** The id of the page's JSON of the lower sections' words. */
export const LATER_WORDS_ID = 'user-center-words';

/** For user_center.astro: the island's props. */
export function firstWords(m: Messages): FirstWords {
  const { userCenter, account, errors, companyTypes, statuses, common, linkSignIn, members, stepUp } = m;
  const { closing, closingHint, keep } = m.dataRights;
  return { userCenter, account, errors, companyTypes, statuses, common, linkSignIn, members, stepUp, security: { title: m.security.title }, dataRights: { closing, closingHint, keep } };
}

/** For user_center.astro: the JSON, with `<` escaped so that no word can end its script element. */
export function laterWordsJson(m: Messages): string {
  const { security, passkeys, twoStep, accountActivity, actionNames, dataRights, connect, apiClients, wechat, grants, webhooks, companySso } = m;
  const later: LaterWords = { security, passkeys, twoStep, accountActivity, actionNames, dataRights, connect, apiClients, wechat, grants, webhooks, companySso };
  return JSON.stringify(later).replaceAll('<', '\\u003c');
}

let merged: [FirstWords, AllWords] | undefined;

/** Every word of the page: the props' and the page's JSON (read once, the same object on every render). Browser only. */
export function withLaterWords(first: FirstWords): AllWords {
  if (merged?.[0] !== first) merged = [first, { ...first, ...(JSON.parse(document.getElementById(LATER_WORDS_ID)?.textContent ?? '{}') as LaterWords) }];
  return merged[1];
}
