import type { Context } from 'hono';
import { configOf } from '../../config';
import { requestLang } from '../../contract';
import { ERR, errorMessage } from '../../../src/schemas/error-codes';
import { format } from '../../../src/i18n/format';
import { workerMessagesFor } from '../../../src/i18n/worker';
import type { Lang } from '../../../src/lib/lang';
import type { Config } from '../../config';

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
  const w = workerMessagesFor(lang).support;
  const parts = [support.phone && format(w.phone, { phone: support.phone }), support.email && format(w.email, { email: support.email }), support.hours].filter(Boolean);
  const contact = parts.length ? ` ${w.lead}${lang === 'zh' ? '' : ' '}${parts.join(w.separator)}${w.end}` : '';
  return c.json({ code: ERR.ACCOUNT_BLOCKED, message: `${errorMessage(ERR.ACCOUNT_BLOCKED, lang)}${contact}`, data: { support } }, 403);
}
