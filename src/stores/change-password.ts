import { atom } from 'nanostores';
import { fetchLoginCase } from '../api/login-case';
import { twoStepApi } from '../api/two-step';
import type { MessageKey } from '../i18n/problem';
import { hashPassword, sha1Hex } from '../lib/password-hash';
import { newPasswordProblem } from '../schemas/password-rules';
import { realBrowser, SESSION_KEYS, type BrowserEnv } from './browser';
import { createForm } from './form';
import { STEP_UP_CANCELLED, withFreshProof } from './step-up-state';

// Where to go next (and its calls) loads once the sign-in or the change has landed, not with the page (issue 31).
const afterSignIn = () => import('./after-sign-in');

type Field = 'current' | 'password' | 'confirm';

const USER_CENTER = '/user_center';

/**
 * The /change_password form (login case 2 with the original-password flag, or from the user center): the current
 * password (when the account has one) and the new one twice. The current password is asked on the change itself,
 * however fresh the session's proof (ASVS 5.0 V6.2.3); the change also needs a fresh proof of the person: the
 * sign-in that found the flag is one; an older session is asked to confirm it's them (stores/step-up.ts) and the
 * change runs once more.
 */
const initial = {
  /** The change the sign-in demanded (the original-password flag), which goes on by the login case afterwards. */
  forced: 'loading' as boolean | 'loading',
  current: '',
  password: '',
  confirm: '',
  notice: '' as MessageKey | '',
  step: 'form' as 'form' | 'done',
  /** The account has a password to change; false: signed up by code, the page sets the first one. */
  hasPassword: true,
};
const form = createForm<typeof initial, Field>(initial, { editClearsForm: true, codes: { PW0003: 'current', PW0004: 'current', PW0002: 'password', PW0005: 'password' } });
export const $changePassword = form.$values;
export const $changePasswordErrors = form.$errors;
export const $changePasswordCooldownUntil = atom(0);

/** Whether the sign-in demanded this change (the original-password flag); a person's own choice otherwise. */
export async function initChangePassword() {
  const [answer, status] = await Promise.all([fetchLoginCase(), twoStepApi.status()]);
  form.$values.set({ ...$changePassword.get(), forced: answer.ok && answer.data.originalFlag, hasPassword: !status.ok || status.data.hasPassword });
}

export const setField = (key: Field, value: string) => form.set(key, value);

/** The current password hashed as at sign-in: with the legacy salt of a version-1 record (the proof's start names it). */
async function currentPasswordHash(current: string): Promise<string> {
  const { stepUpApi } = await import('../api/step-up');
  const start = await stepUpApi.start();
  return hashPassword(current, (start.ok ? start.data.passwordSalt : null) ?? undefined);
}

/**
 * Validates the pair (password rule, the two equal), sends the hashes, then goes back to the user center (a
 * change the person chose) or on by the (now cleared) login case (the change sign-in demanded).
 */
export const submit = (browser: BrowserEnv = realBrowser()) => {
  if ($changePassword.get().forced === 'loading') return Promise.resolve(undefined);
  return form.run(async () => {
    const s = $changePassword.get();
    form.$errors.set({});
    if (s.hasPassword && !s.current) return form.fail('current', { key: 'changePassword.currentRequired' });
    const problem = newPasswordProblem(s.password, s.confirm);
    if (problem) return form.fail(problem.field, { key: problem.problem === 'confirmRequired' ? 'changePassword.confirmRequired' : `validation.${problem.problem}` });
    const hash = await hashPassword(s.password);
    // The change's call and its schema load with the first submit (issue 31).
    const { passwordApi } = await import('../api/password');
    const currentPassword = s.hasPassword ? await currentPasswordHash(s.current) : undefined;
    const newPasswordSha1 = await sha1Hex(s.password);
    const changed = await withFreshProof(() => passwordApi.changePassword({ currentPassword, newPassword: hash, newPasswordSubmit: hash, newPasswordSha1 }));
    if (!changed.ok) return changed.code === STEP_UP_CANCELLED ? undefined : form.failure(changed);
    form.$values.set({ ...$changePassword.get(), step: 'done', current: '', password: '', confirm: '' });
    if (!s.forced) {
      // A change the person chose (from the user center) ends where it began, which confirms it.
      browser.storage.setItem(SESSION_KEYS.passwordChanged, s.hasPassword ? 'changed' : 'set');
      form.leaving();
      return browser.navigate(USER_CENTER);
    }
    const failed = await (await afterSignIn()).goOnByLoginCase(browser);
    if (failed) {
      form.$values.setKey('step', 'form');
      form.fail('form', { code: failed.code, message: failed.message });
    }
  });
};
