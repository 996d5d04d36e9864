import { atom } from 'nanostores';
import { passwordApi } from '../api/password';
import type { MessageKey } from '../i18n/problem';
import { hashPassword } from '../lib/password-hash';
import { newPasswordProblem, type ChangePasswordProof } from '../schemas/password';
import { goOnByLoginCase } from './after-sign-in';
import { realBrowser, SESSION_KEYS, type BrowserEnv } from './browser';
import { codeSendFlow, createForm } from './form';

type Field = 'current' | 'code' | 'password' | 'confirm';

const USER_CENTER = '/user_center';

/**
 * The /change_password form (login case 2 with the original-password flag, or from the user center). The
 * server says which proof it needs (`proof`): none for the forced change right after sign-in, the current
 * password, or a code sent to the account for people who signed up by code and have no password.
 */
const initial = {
  proof: 'loading' as ChangePasswordProof | 'loading',
  /** The legacy salt the current password is hashed with, or null. */
  salt: null as string | null,
  current: '',
  code: '',
  password: '',
  confirm: '',
  notice: '' as MessageKey | '',
  step: 'form' as 'form' | 'done',
};
const form = createForm<typeof initial, Field>(initial, {
  // A refusal belongs to the proof fields it names, anything else to the form as a whole.
  codes: { PW0003: 'current', PW0004: 'current', PW0005: 'code', CD0010: 'code', CD0011: 'code', CD0012: 'code', CD0013: 'code', CD0014: 'code' },
  editClearsForm: true,
});
export const $changePassword = form.$values;
export const $changePasswordErrors = form.$errors;
export const $changePasswordCooldownUntil = atom(0);

/** Asks the server which proof this session needs. */
export async function initChangePassword() {
  const answer = await passwordApi.changePasswordProof();
  if (!answer.ok) return form.fail('form', { code: answer.code, message: answer.message });
  form.$values.set({ ...$changePassword.get(), proof: answer.data.proof, salt: answer.data.salt });
}

export const setField = (key: Field, value: string) => form.set(key, value);

/** Sends the code of a password change to the account's own e-mail or phone. */
export const sendCode = codeSendFlow(form, $changePasswordCooldownUntil, () => passwordApi.changePasswordSendCode());

/** The proof fields the server asked for, filled in, or null after showing the missing one. */
async function proofFields(s: ReturnType<typeof $changePassword.get>): Promise<Record<string, string> | null> {
  if (s.proof === 'password') {
    if (!s.current) return form.fail('current', { key: 'changePassword.currentRequired' }), null;
    return { currentPassword: await hashPassword(s.current, s.salt ?? '') };
  }
  if (s.proof === 'code') {
    if (!s.code) return form.fail('code', { key: 'validation.codeRequired' }), null;
    return { code: s.code };
  }
  return {};
}

/**
 * Validates the pair (password rule, the two equal) and the proof, sends the hashes, then goes back to the user
 * center (a change the person chose) or on by the (now cleared) login case (the change sign-in demanded).
 */
export const submit = (browser: BrowserEnv = realBrowser()) => {
  if ($changePassword.get().proof === 'loading') return Promise.resolve(undefined);
  return form.run(async () => {
    const s = $changePassword.get();
    form.$errors.set({});
    const proof = await proofFields(s);
    const problem = newPasswordProblem(s.password, s.confirm);
    if (problem) form.fail(problem.field, { key: problem.problem === 'confirmRequired' ? 'changePassword.confirmRequired' : `validation.${problem.problem}` });
    if (!proof || problem) return;
    const hash = await hashPassword(s.password);
    const changed = await passwordApi.changePassword({ newPassword: hash, newPasswordSubmit: hash, ...proof });
    if (!changed.ok) return form.failure(changed);
    form.$values.set({ ...$changePassword.get(), step: 'done', current: '', code: '', password: '', confirm: '' });
    if (s.proof !== 'none') {
      // A change the person chose (from the user center) ends where it began, which confirms it.
      browser.storage.setItem(SESSION_KEYS.passwordChanged, '1');
      form.leaving();
      return browser.navigate(USER_CENTER);
    }
    const failed = await goOnByLoginCase(browser);
    if (failed) {
      form.$values.setKey('step', 'form');
      form.fail('form', { code: failed.code, message: failed.message });
    }
  });
};
