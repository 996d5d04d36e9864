import type { Context } from 'hono';
import { configOf, type Config } from '../../config';
import { requestLang } from '../../contract';
import { ERR, errorMessage } from '../../../src/schemas/error-codes';
import { supportContactSentence } from '../../../src/schemas/support';
import type { Lang } from '../../../src/lib/lang';

/** The support contact from configuration (SUPPORT_PHONE, SUPPORT_EMAIL, SUPPORT_HOURS) in one language. */
export function supportContact(config: Config, lang: Lang) {
  return { phone: config.supportPhone ?? null, email: config.supportEmail ?? null, hours: config.supportHours[lang] ?? config.supportHours.zh ?? null };
}

/**
 * PS0100, a blocked account, told how to reach support (issue 33): the message names the configured phone,
 * e-mail and hours, and `data.support` carries them for a page that lays them out.
 */
export function blockedAnswer(c: Context) {
  const lang = requestLang(c);
  const support = supportContact(configOf(c.env), lang);
  return c.json({ code: ERR.ACCOUNT_BLOCKED, message: `${errorMessage(ERR.ACCOUNT_BLOCKED, lang)}${supportContactSentence(lang, support)}`, data: { support } }, 403);
}
