import type { Lang } from '../lib/lang';

/**
 * The words around the support contact a blocked account's refusal (PS0100) names, beside that refusal's own words
 * in error-codes.ts: the gateway composes the message; `{phone}`, `{email}` come from configuration.
 */
export const SUPPORT_CONTACT_WORDS: Record<Lang, { lead: string; phone: string; email: string; separator: string; end: string }> = {
  en: { lead: ' Customer support: ', phone: 'phone {phone}', email: 'e-mail {email}', separator: ', ', end: '.' },
  zh: { lead: '客服：', phone: '电话 {phone}', email: '邮箱 {email}', separator: '，', end: '。' },
};

/** The contact sentence in `lang`, empty when nothing is configured. */
export function supportContactSentence(lang: Lang, support: { phone: string | null; email: string | null; hours: string | null }): string {
  const w = SUPPORT_CONTACT_WORDS[lang];
  const parts = [support.phone && w.phone.replace('{phone}', support.phone), support.email && w.email.replace('{email}', support.email), support.hours].filter(Boolean);
  return parts.length ? `${w.lead}${parts.join(w.separator)}${w.end}` : '';
}
