import { atom, map } from 'nanostores';
import type { ApiResult } from '../api/client';
import { passwordApi } from '../api/password';
import type { Messages } from '../i18n';
import { hashPassword } from '../lib/password-hash';
import { emailSchema, stripSpacesAndCommas } from '../schemas/auth';
import { DEFAULT_AREA_CODE_ID } from '../schemas/dictionaries';
import { newPasswordProblem } from '../schemas/password';
import { failureMessage } from './after-sign-in';
import { ask } from './dialog';

export type PasswordResetMessages = Pick<Messages, 'reset' | 'signIn' | 'validation' | 'errors' | 'common'>;
export type Channel = 'phone' | 'email';
type Field = 'mobile' | 'email' | 'code' | 'password' | 'confirm' | 'form';

/** How long the success message shows before the page goes back to its login page. */
export const BACK_TO_LOGIN_DELAY_MS = 1500;
/** Spec 4: the code button counts down 60 s (the server enforces the same wait). */
export const RESEND_WAIT_MS = 60_000;

/**
 * /forget and /navigator_forget: prove the phone (slider, then SMS) or e-mail with a code, then set a new
 * password twice. `step` 'done' shows the success and leads back to `loginPath`.
 */
export const $reset = map({
  channel: 'phone' as Channel,
  areaId: DEFAULT_AREA_CODE_ID,
  callingCode: '+86',
  mobile: '',
  email: '',
  code: '',
  password: '',
  confirm: '',
  busy: false,
  step: 'form' as 'form' | 'done',
  notice: '',
  errors: {} as Partial<Record<Field, string>>,
});
export const $resetCooldownUntil = atom(0);

let t: PasswordResetMessages;
let loginPath = '/login';
export function initPasswordReset(messages: PasswordResetMessages, options: { loginPath: string }) {
  t = messages;
  loginPath = options.loginPath;
}

type State = ReturnType<typeof $reset.get>;
export function setField<K extends 'areaId' | 'callingCode' | 'mobile' | 'email' | 'code' | 'password' | 'confirm'>(key: K, value: State[K]) {
  $reset.setKey(key, value as never);
  const field = key === 'areaId' || key === 'callingCode' ? 'mobile' : key;
  $reset.setKey('errors', { ...$reset.get().errors, [field]: undefined, form: undefined });
}

export function switchChannel(channel: Channel) {
  $reset.set({ ...$reset.get(), channel, code: '', notice: '', errors: {} });
}

const fieldError = (field: Field, message: string) => $reset.setKey('errors', { ...$reset.get().errors, [field]: message });

/** The identifier as the gateway wants it, or null after a field error. */
function identifier(): { loginType: 1; mobileCode: string; mobile: string; subject: string } | { loginType: 2; loginEmail: string } | null {
  const s = $reset.get();
  if (s.channel === 'phone') {
    const mobile = stripSpacesAndCommas(s.mobile);
    if (!mobile) return fieldError('mobile', t.validation.phoneRequired), null;
    if (!/^\d{4,15}$/.test(mobile)) return fieldError('mobile', t.validation.phoneInvalid), null;
    return { loginType: 1, mobileCode: s.callingCode, mobile, subject: `${s.callingCode}${mobile}` };
  }
  if (!stripSpacesAndCommas(s.email)) return fieldError('email', t.validation.emailRequired), null;
  const email = emailSchema.safeParse(s.email);
  if (!email.success) return fieldError('email', t.validation.emailInvalid), null;
  return { loginType: 2, loginEmail: email.data };
}

/** A gateway failure next to its field: PH → the identifier, CD → the code, RS/PW → the new password. */
function showFailure(result: Extract<ApiResult<unknown>, { ok: false }>) {
  const field: Field = result.code.startsWith('PH')
    ? $reset.get().channel === 'phone' ? 'mobile' : 'email'
    : result.code.startsWith('CD001')
      ? 'code'
      : result.code === 'RS0001'
        ? 'confirm'
        : result.code.startsWith('PW')
          ? 'password'
          : 'form';
  fieldError(field, failureMessage(result, t.errors));
}

async function busy(work: () => Promise<void>) {
  if ($reset.get().busy) return;
  $reset.setKey('busy', true);
  try {
    await work();
  } finally {
    $reset.setKey('busy', false);
  }
}

/** Get Code: the slider for a phone, then the send. The answer never says whether the account exists. */
export const sendCode = () =>
  busy(async () => {
    $reset.set({ ...$reset.get(), notice: '', errors: {} });
    const id = identifier();
    if (!id) return;
    let sent: ApiResult<unknown>;
    if (id.loginType === 1) {
      const sliderCheck = await ask({ kind: 'slider', scene: 'sms', subject: id.subject });
      if (!sliderCheck) return;
      sent = await passwordApi.resetSendCode({ loginType: 1, mobileCode: id.mobileCode, mobile: id.mobile, sliderCheck });
    } else {
      sent = await passwordApi.resetSendCode({ loginType: 2, loginEmail: id.loginEmail });
    }
    if (!sent.ok) {
      const retryAfter = (sent.data as { retryAfter?: number } | undefined)?.retryAfter;
      if (retryAfter) $resetCooldownUntil.set(Date.now() + retryAfter * 1000);
      return showFailure(sent);
    }
    $resetCooldownUntil.set(Date.now() + RESEND_WAIT_MS);
    $reset.setKey('notice', t.signIn.codeSent);
  });

/** Checks the form (spec 5), resets, then shows the success and goes back to the login page. */
export const submit = () =>
  busy(async () => {
    $reset.set({ ...$reset.get(), notice: '', errors: {} });
    const id = identifier();
    if (!id) return;
    const s = $reset.get();
    const code = s.code.trim();
    if (!code) return fieldError('code', t.validation.codeRequired);
    const problem = newPasswordProblem(s.password, s.confirm);
    if (problem) return fieldError(problem.field, problem.problem === 'confirmRequired' ? t.reset.confirmRequired : t.validation[problem.problem]);
    const hash = await hashPassword(s.password);
    const { subject: _subject, ...who } = id as typeof id & { subject?: string };
    const done = await passwordApi.reset({ ...who, code, newPassword: hash, newPasswordSubmit: hash });
    if (!done.ok) return showFailure(done);
    $reset.set({ ...$reset.get(), step: 'done', code: '', password: '', confirm: '' });
    setTimeout(() => location.assign(loginPath), BACK_TO_LOGIN_DELAY_MS);
  });
