import { onboardingApi } from '../api/onboarding';
import type { Problem } from '../i18n/problem';
import { stripSpacesAndCommas } from '../schemas/auth-rules';
import { emailSchema, mainlandMobileSchema, mobileSchema } from '../schemas/contact-fields';
import { DEFAULT_AREA_CODE_ID } from '../schemas/dictionaries';

/** What the administrator form and the staff form share: the contact checks and where they go when sent. */

/** loginType for the completion page: the query's, else 1 when the person has a registered mobile. */
export async function currentLoginType(search: string): Promise<1 | 2> {
  const fromQuery = new URLSearchParams(search).get('loginType');
  if (fromQuery === '1' || fromQuery === '2') return Number(fromQuery) as 1 | 2;
  const me = await onboardingApi.fetchMe();
  return me.ok && !me.data.registerMobile ? 2 : 1;
}

export const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');

/** The mainland mobile pattern applies only with the default (mainland) area code. */
export function phoneProblem(areaId: string, raw: string, required: 'onboarding.errors.phoneRequired' | 'onboarding.errors.contactPhoneRequired' = 'onboarding.errors.phoneRequired'): Problem | undefined {
  if (!stripSpacesAndCommas(raw)) return { key: required };
  const schema = areaId === DEFAULT_AREA_CODE_ID ? mainlandMobileSchema : mobileSchema;
  return schema.safeParse(raw).success ? undefined : { key: 'onboarding.errors.phoneInvalid' };
}

export function emailProblem(raw: string): Problem | undefined {
  if (!stripSpacesAndCommas(raw)) return { key: 'onboarding.errors.emailRequired' };
  return emailSchema.safeParse(raw).success ? undefined : { key: 'onboarding.errors.emailInvalid' };
}
