import { onboardingApi } from '../api/onboarding';
import type { Problem } from '../i18n/problem';
import { readCookie } from '../lib/read-cookie';
import { parseSourceCookie, PORT_TYPE_COOKIE, SOURCE_COOKIE, ZHOUSHAN_SOURCE } from '../lib/source-origin';
import { emailSchema, mainlandMobileSchema, mobileSchema, stripSpacesAndCommas } from '../schemas/auth';
import { DEFAULT_AREA_CODE_ID } from '../schemas/dictionaries';

/** What the administrator form and the staff form share: the contact checks and where they go when sent. */

/** loginType for the completion page: the query's, else 1 when the person has a registered mobile. */
export async function currentLoginType(search: string): Promise<1 | 2> {
  const fromQuery = new URLSearchParams(search).get('loginType');
  if (fromQuery === '1' || fromQuery === '2') return Number(fromQuery) as 1 | 2;
  const me = await onboardingApi.fetchMe();
  return me.ok && !me.data.registerMobile ? 2 : 1;
}

/** The SOURCE_FROM cookie names zhoushan, or the edge set the port-type cookie for it. */
export function isZhoushanVisit(): boolean {
  // Outside a browser (the stores' unit tests) there are no cookies.
  const cookies = typeof document === 'undefined' ? '' : document.cookie;
  if (readCookie(cookies, PORT_TYPE_COOKIE) === ZHOUSHAN_SOURCE) return true;
  return parseSourceCookie(readCookie(cookies, SOURCE_COOKIE)).source?.toLowerCase() === ZHOUSHAN_SOURCE;
}

export const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');

/** The mainland mobile pattern applies only with the default (mainland) area code. */
export function phoneProblem(areaId: string, raw: string): Problem | undefined {
  if (!stripSpacesAndCommas(raw)) return { key: 'onboarding.errors.phoneRequired' };
  const schema = areaId === DEFAULT_AREA_CODE_ID ? mainlandMobileSchema : mobileSchema;
  return schema.safeParse(raw).success ? undefined : { key: 'onboarding.errors.phoneInvalid' };
}

export function emailProblem(raw: string): Problem | undefined {
  if (!stripSpacesAndCommas(raw)) return { key: 'onboarding.errors.emailRequired' };
  return emailSchema.safeParse(raw).success ? undefined : { key: 'onboarding.errors.emailInvalid' };
}
