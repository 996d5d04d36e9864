import type { Messages } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { pageTime } from '../../lib/notice-time';
import type { SignInEntry } from '../../schemas/security';
import { format } from '../../i18n/format';

type SecurityMessages = Messages['security'];
const locale = (lang: Lang) => (lang === 'zh' ? 'zh-CN' : 'en-GB');

/** "Chrome on Windows · Computer", from what the gateway parsed out of the user agent. */
export function deviceLabel(device: { browser: string | null; os: string | null; type: string | null }, m: SecurityMessages): string {
  const { browser, os, type } = device;
  const name = browser && os ? format(m.browserOnOs, { browser, os }) : browser || os || m.unknownDevice;
  const kind = type && type in m.deviceTypes ? m.deviceTypes[type as keyof SecurityMessages['deviceTypes']] : null;
  return kind ? `${name} · ${kind}` : name;
}

/** How a sign-in was made: "Password", or with two-step on "Password, then authenticator app". */
export function signInMethodLabel(entry: Pick<SignInEntry, 'method' | 'secondStep'>, m: SecurityMessages): string {
  const method = m.methods[entry.method];
  return entry.secondStep ? format(m.withSecondStep, { method, step: m.secondSteps[entry.secondStep] }) : method;
}

/** A time to the minute in the page's language, in the browser's zone with the zone named (issue 47: pageTime). */
export function timeLabel(at: number, lang: Lang): string {
  return pageTime(at, lang);
}

/** The country's name in the page's language ("Singapore", "新加坡"), or "unknown". */
export function countryLabel(code: string | null, lang: Lang, m: SecurityMessages): string {
  if (!code) return m.unknownCountry;
  try {
    return new Intl.DisplayNames([locale(lang)], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
