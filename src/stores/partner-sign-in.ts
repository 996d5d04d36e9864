import { map } from 'nanostores';
import { authApi } from '../api/auth';
import { SALT_REQUIRED, type ApiResult } from '../api/client';
import { passwordApi } from '../api/password';
import type { Messages } from '../i18n';
import { hashPassword } from '../lib/password-hash';
import { meetsPasswordRule, PASSWORD_VERSION, stripSpacesAndCommas, TRACELESS, type LoginAnswer, type SliderCheck } from '../schemas/auth';
import { DEFAULT_AREA_CODE_ID } from '../schemas/dictionaries';
import { PARTNER_CAPTCHA_TYPE } from '../schemas/password';
import { continueAfterSignIn, failureMessage } from './after-sign-in';
import { ask } from './dialog';

export type PartnerSignInMessages = Pick<Messages, 'partner' | 'signIn' | 'validation' | 'errors'>;
type Field = 'mobile' | 'password' | 'slider' | 'form';

/**
 * The partner (navigator) sign-in of spec 2: phone-code selector, phone, password and slider. The slider is a
 * field of the form: its passed check is bound to the phone it was solved for and is spent by one attempt.
 */
export const $partnerSignIn = map({
  areaId: DEFAULT_AREA_CODE_ID,
  callingCode: '+86',
  mobile: '',
  password: '',
  /** The passed slider for `sliderFor`; cleared when the phone changes or an attempt spends it. */
  sliderCheck: null as SliderCheck | null,
  sliderFor: '',
  busy: false,
  redirecting: false,
  errors: {} as Partial<Record<Field, string>>,
});

let t: PartnerSignInMessages;
export function initPartnerSignIn(messages: PartnerSignInMessages) {
  t = messages;
}

type State = ReturnType<typeof $partnerSignIn.get>;
export function setField<K extends 'areaId' | 'callingCode' | 'mobile' | 'password'>(key: K, value: State[K]) {
  $partnerSignIn.setKey(key, value as never);
  const errors = { ...$partnerSignIn.get().errors, [key === 'password' ? 'password' : 'mobile']: undefined, form: undefined };
  $partnerSignIn.setKey('errors', errors);
}

const fieldError = (field: Field, message: string) => $partnerSignIn.setKey('errors', { ...$partnerSignIn.get().errors, [field]: message });

/** The phone as E.164-ish subject for the slider, or a field error. */
function phone(): { mobile: string; subject: string } | null {
  const s = $partnerSignIn.get();
  const mobile = stripSpacesAndCommas(s.mobile);
  if (!mobile) return fieldError('mobile', t.validation.phoneRequired), null;
  if (!/^\d{4,15}$/.test(mobile)) return fieldError('mobile', t.validation.phoneInvalid), null;
  return { mobile, subject: `${s.callingCode}${mobile}` };
}

/** Opens the slider for the current phone; true when it passed. */
export async function verifySlider(): Promise<boolean> {
  const id = phone();
  if (!id) return false;
  const check = await ask({ kind: 'slider', scene: 'login', subject: id.subject });
  if (!check) return false;
  $partnerSignIn.set({ ...$partnerSignIn.get(), sliderCheck: check, sliderFor: id.subject, errors: { ...$partnerSignIn.get().errors, slider: undefined } });
  return true;
}

/** A passed slider for this phone, asking for one when there is none; null when the person gave up. */
async function takeSliderCheck(subject: string): Promise<SliderCheck | null> {
  const s = $partnerSignIn.get();
  if (!s.sliderCheck || s.sliderFor !== subject) {
    if (!(await verifySlider())) {
      fieldError('slider', t.partner.sliderRequired);
      return null;
    }
  }
  const check = $partnerSignIn.get().sliderCheck;
  // A check is single use on the server: whatever the answer, the next attempt needs a new slide.
  $partnerSignIn.set({ ...$partnerSignIn.get(), sliderCheck: null, sliderFor: '' });
  return check;
}

export async function submit() {
  const s = $partnerSignIn.get();
  if (s.busy) return;
  $partnerSignIn.setKey('errors', {});
  const id = phone();
  if (!id) return;
  if (!s.password) return fieldError('password', t.validation.passwordRequired);
  $partnerSignIn.setKey('busy', true);
  try {
    // Spec 4: a password that breaks today's rule asks for a new one first (cancelling signs out).
    let newPassword: string | undefined;
    if (!meetsPasswordRule(s.password)) {
      const answer = await ask({ kind: 'insecure' });
      if (!answer) return void (await authApi.logout());
      newPassword = await hashPassword(answer.newPassword);
    }
    const attempt = async (password: string, passwordVersion: 1 | 2): Promise<ApiResult<LoginAnswer> | null> => {
      const sliderCheck = await takeSliderCheck(id.subject);
      if (!sliderCheck) return null;
      return passwordApi.partnerLogin({
        phone: id.mobile,
        phoneCode: s.callingCode,
        password,
        passwordVersion,
        newPassword,
        captchaType: PARTNER_CAPTCHA_TYPE,
        sliderCheck,
      });
    };
    let result = await attempt(await hashPassword(s.password), PASSWORD_VERSION.plain);
    if (result && !result.ok && result.code === SALT_REQUIRED) {
      // Spec 8: SY9990 → fetch the salt and sign in again with the salted hash (a fresh slide).
      const salt = await authApi.userSalt({ type: 1, phone: id.mobile, phoneCode: s.callingCode });
      result = salt.ok ? await attempt(await hashPassword(s.password, salt.data.salt), PASSWORD_VERSION.salted) : salt;
    }
    if (!result) return;
    if (!result.ok) return fieldError(result.code.startsWith('PH') ? 'mobile' : result.code.startsWith('CP') ? 'slider' : 'form', failureMessage(result, t.errors));
    if (result.data.tracelessCheckResult !== TRACELESS.pass && result.data.tracelessCheckResult !== TRACELESS.passTrusted) {
      return fieldError('form', t.errors.registerFailed);
    }
    $partnerSignIn.setKey('redirecting', true);
    const failed = await continueAfterSignIn(result.data);
    if (failed) {
      $partnerSignIn.setKey('redirecting', false);
      if (failed !== 'cancelled') fieldError('form', failureMessage(failed, t.errors));
    }
  } finally {
    $partnerSignIn.setKey('busy', false);
  }
}
