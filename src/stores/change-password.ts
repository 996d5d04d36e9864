import { map } from 'nanostores';
import { authApi } from '../api/auth';
import { NETWORK_ERROR, type ApiResult } from '../api/client';
import { passwordApi } from '../api/password';
import type { Messages } from '../i18n';
import { hashPassword } from '../lib/password-hash';
import { REDIRECT_DELAY_MS, routeForLoginCase } from '../lib/login-route';
import { newPasswordProblem } from '../schemas/password';

export type ChangePasswordMessages = Pick<Messages, 'changePassword' | 'signIn' | 'validation' | 'errors'>;
type Field = 'password' | 'confirm' | 'form';

/** The /change_password form (login case 2 with the original-password flag, or from the user center). */
export const $changePassword = map({
  password: '',
  confirm: '',
  busy: false,
  step: 'form' as 'form' | 'done',
  errors: {} as Partial<Record<Field, string>>,
});

let t: ChangePasswordMessages;
export function initChangePassword(messages: ChangePasswordMessages) {
  t = messages;
}

export function setField(key: 'password' | 'confirm', value: string) {
  $changePassword.setKey(key, value);
  $changePassword.setKey('errors', { ...$changePassword.get().errors, [key]: undefined, form: undefined });
}

/** The message of a failed call: the gateway's (already in the visitor's language), or spec 8's defaults. */
export function failureMessage(result: Extract<ApiResult<unknown>, { ok: false }>, errors: Messages['errors']): string {
  return result.code === NETWORK_ERROR ? errors.network : result.message || errors.generic;
}

/**
 * Asks for the login case and goes where spec 2 says (as sign-in does after its 500 ms), for flows that end
 * in a session: the partner sign-in and the password change. Returns the failure, if any, to show.
 */
export async function goOnByLoginCase(): Promise<Extract<ApiResult<unknown>, { ok: false }> | null> {
  const answer = await authApi.loginCase();
  if (!answer.ok) return answer;
  const redirect = new URLSearchParams(location.search).get('redirect') ?? undefined;
  const route = routeForLoginCase(answer.data, redirect);
  const { userLoginCase, companyInfo } = answer.data;
  if ((userLoginCase === 6 || userLoginCase === 7) && companyInfo) {
    sessionStorage.setItem('companyName', companyInfo.name);
    if (userLoginCase === 7 && companyInfo.ports[0]) sessionStorage.setItem('ports', JSON.stringify([companyInfo.ports[0]]));
  }
  if (route.kind === 'anonymous-then') await authApi.anonymousLogin(answer.data.registerMobile ? 1 : 2);
  setTimeout(() => location.assign(route.to), REDIRECT_DELAY_MS);
  return null;
}

/** Validates the pair (spec 5), sends both hashes, then routes on by the (now cleared) login case. */
export async function submit() {
  const s = $changePassword.get();
  if (s.busy) return;
  const problem = newPasswordProblem(s.password, s.confirm);
  if (problem) {
    const message = problem.problem === 'confirmRequired' ? t.changePassword.confirmRequired : t.validation[problem.problem];
    return $changePassword.setKey('errors', { [problem.field]: message });
  }
  $changePassword.set({ ...s, busy: true, errors: {} });
  try {
    const hash = await hashPassword(s.password);
    const changed = await passwordApi.changePassword({ newPassword: hash, newPasswordSubmit: hash });
    if (!changed.ok) return $changePassword.setKey('errors', { form: failureMessage(changed, t.errors) });
    $changePassword.set({ ...$changePassword.get(), step: 'done', password: '', confirm: '' });
    const failed = await goOnByLoginCase();
    if (failed) $changePassword.set({ ...$changePassword.get(), step: 'form', errors: { form: failureMessage(failed, t.errors) } });
  } finally {
    $changePassword.setKey('busy', false);
  }
}
