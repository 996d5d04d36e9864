import { map } from 'nanostores';
import { passwordApi } from '../api/password';
import type { Messages } from '../i18n';
import { hashPassword } from '../lib/password-hash';
import { newPasswordProblem } from '../schemas/password';
import { failureMessage, goOnByLoginCase } from './after-sign-in';

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
