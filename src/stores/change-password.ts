import { atom, map } from 'nanostores';
import { passwordApi } from '../api/password';
import type { ApiResult } from '../api/result';
import type { Messages } from '../i18n';
import { hashPassword } from '../lib/password-hash';
import { newPasswordProblem, type ChangePasswordProof } from '../schemas/password';
import { failureMessage, goOnByLoginCase } from './after-sign-in';

export type ChangePasswordMessages = Pick<Messages, 'changePassword' | 'signIn' | 'validation' | 'errors'>;
type Field = 'current' | 'code' | 'password' | 'confirm' | 'form';

/** The server's own wait between two codes; the button counts down the same. */
const RESEND_WAIT_MS = 60_000;

/**
 * The /change_password form (login case 2 with the original-password flag, or from the user center). The
 * server says which proof it needs (`proof`): none for the forced change right after sign-in, the current
 * password, or a code sent to the account for people who signed up by code and have no password.
 */
export const $changePassword = map({
  proof: 'loading' as ChangePasswordProof | 'loading',
  /** The legacy salt the current password is hashed with, or null. */
  salt: null as string | null,
  current: '',
  code: '',
  password: '',
  confirm: '',
  busy: false,
  notice: '',
  step: 'form' as 'form' | 'done',
  errors: {} as Partial<Record<Field, string>>,
});
export const $changePasswordCooldownUntil = atom(0);

/** Which field a refusal belongs to: the proof fields, or the form as a whole. */
const FIELD_OF_CODE: Record<string, Field> = {
  PW0003: 'current',
  PW0004: 'current',
  PW0005: 'code',
  CD0010: 'code',
  CD0011: 'code',
  CD0012: 'code',
  CD0013: 'code',
  CD0014: 'code',
};

let t: ChangePasswordMessages;
/** Keeps the messages and asks the server which proof this session needs. */
export async function initChangePassword(messages: ChangePasswordMessages) {
  t = messages;
  const answer = await passwordApi.changePasswordProof();
  if (!answer.ok) return $changePassword.setKey('errors', { form: failureMessage(answer, t.errors) });
  $changePassword.set({ ...$changePassword.get(), proof: answer.data.proof, salt: answer.data.salt });
}

export function setField(key: 'current' | 'code' | 'password' | 'confirm', value: string) {
  $changePassword.setKey(key, value);
  $changePassword.setKey('errors', { ...$changePassword.get().errors, [key]: undefined, form: undefined });
}

function showFailure(result: Extract<ApiResult<unknown>, { ok: false }>) {
  $changePassword.setKey('errors', { [FIELD_OF_CODE[result.code] ?? 'form']: failureMessage(result, t.errors) });
}

/** Sends the code of a password change to the account's own e-mail or phone. */
export async function sendCode() {
  const s = $changePassword.get();
  if (s.busy) return;
  $changePassword.set({ ...s, busy: true, notice: '', errors: {} });
  try {
    const sent = await passwordApi.changePasswordSendCode();
    if (!sent.ok) {
      const retryAfter = (sent.data as { retryAfter?: number } | undefined)?.retryAfter;
      if (retryAfter) $changePasswordCooldownUntil.set(Date.now() + retryAfter * 1000);
      return showFailure(sent);
    }
    $changePasswordCooldownUntil.set(Date.now() + RESEND_WAIT_MS);
    $changePassword.setKey('notice', t.signIn.codeSent);
  } finally {
    $changePassword.setKey('busy', false);
  }
}

/** The proof fields the server asked for, filled in, or the first missing one. */
async function proofFields(s: ReturnType<typeof $changePassword.get>) {
  if (s.proof === 'password') {
    if (!s.current) return { missing: { current: t.changePassword.currentRequired } };
    return { fields: { currentPassword: await hashPassword(s.current, s.salt ?? '') } };
  }
  if (s.proof === 'code') {
    if (!s.code) return { missing: { code: t.validation.codeRequired } };
    return { fields: { code: s.code } };
  }
  return { fields: {} };
}

/**
 * Validates the pair (password rule, the two equal) and the proof, sends the hashes, then routes on by the
 * (now cleared) login case.
 */
export async function submit() {
  const s = $changePassword.get();
  if (s.busy || s.proof === 'loading') return;
  const proof = await proofFields(s);
  const problem = newPasswordProblem(s.password, s.confirm);
  if (proof.missing || problem) {
    const errors: Partial<Record<Field, string>> = { ...proof.missing };
    if (problem) errors[problem.field] = problem.problem === 'confirmRequired' ? t.changePassword.confirmRequired : t.validation[problem.problem];
    return $changePassword.setKey('errors', errors);
  }
  $changePassword.set({ ...s, busy: true, errors: {} });
  try {
    const hash = await hashPassword(s.password);
    const changed = await passwordApi.changePassword({ newPassword: hash, newPasswordSubmit: hash, ...proof.fields });
    if (!changed.ok) return showFailure(changed);
    $changePassword.set({ ...$changePassword.get(), step: 'done', current: '', code: '', password: '', confirm: '' });
    const failed = await goOnByLoginCase();
    if (failed) $changePassword.set({ ...$changePassword.get(), step: 'form', errors: { form: failureMessage(failed, t.errors) } });
  } finally {
    $changePassword.setKey('busy', false);
  }
}
