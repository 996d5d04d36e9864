import type { Problem } from '../i18n/problem';
import { DEFAULT_AREA_CODE_ID, stripSpacesAndCommas } from '../schemas/auth-rules';

/**
 * The phone number or e-mail address a sign-in or reset form identifies the person by, checked with the
 * shared wire contracts: the value as the gateway wants it, or the problem to show. The contracts load on the
 * first check, not with the page (zod stays out of /login's first load).
 */
export async function identifierProblem(form: { channel: 'phone' | 'email'; mobile: string; email?: string }): Promise<{ value: string } | { problem: Problem }> {
  const { emailSchema, mobileSchema } = await import('../schemas/auth');
  const phone = form.channel === 'phone';
  const raw = phone ? form.mobile : (form.email ?? '');
  if (!stripSpacesAndCommas(raw)) return { problem: { key: phone ? 'validation.phoneRequired' : 'validation.emailRequired' } };
  const parsed = (phone ? mobileSchema : emailSchema).safeParse(raw);
  return parsed.success ? { value: parsed.data } : { problem: { key: phone ? 'validation.phoneInvalid' : 'validation.emailInvalid' } };
}

/** What a form's identifier starts as: the phone tab, the default area, nothing typed. */
export const EMPTY_IDENTIFIER = { channel: 'phone' as 'phone' | 'email', areaId: DEFAULT_AREA_CODE_ID, callingCode: '+86', mobile: '', email: '' };
