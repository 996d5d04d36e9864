import type { NewDeviceNotice } from '../schemas/sign-in-answers';
import { SALT_REQUIRED, type ApiResult } from '../api/result';
import { hashPassword, sha1Hex } from '../lib/password-hash';
import { takeResetHandOver } from '../lib/reset-hand-over';
import type { LoginAnswer, SliderCheck } from '../schemas/auth';
import { DEFAULT_AREA_CODE_ID, meetsPasswordRule, PASSWORD_VERSION, TRACELESS } from '../schemas/auth-rules';
import type { PhoneCodeItem } from '../schemas/dictionaries';
import { PARTNER_CAPTCHA_TYPE } from '../schemas/password-rules';
import { ask } from './dialog';
import { createForm } from './form';
import { identifierProblem } from './identifier';
import { problemOf } from '../i18n/problem';
import { track } from '../lib/tracking';

type Field = 'mobile' | 'password' | 'slider';

// The gateway calls and their zod schemas load with the first attempt, not with the page (as on /login).
const loadAuthApi = () => import('../api/auth').then((m) => m.authApi);
const loadPasswordApi = () => import('../api/password').then((m) => m.passwordApi);

/**
 * The partner (navigator) sign-in: phone-code selector, phone, password and slider. The slider is a field
 * of the form: its passed check is bound to the phone it was solved for and is spent by one attempt.
 */
const initial = {
  areaId: DEFAULT_AREA_CODE_ID,
  callingCode: '+86',
  mobile: '',
  password: '',
  /** The passed slider for `sliderFor`; cleared when the phone changes or an attempt spends it. */
  sliderCheck: null as SliderCheck | null,
  sliderFor: '',
  redirecting: false,
  /** The password passed and two-step verification is on: the second-step screen shows (loaded on demand). */
  secondStep: false,
  /** The second step owed is the new-device challenge: where its code went (masked). */
  newDevice: null as NewDeviceNotice | null,
  /** Straight after a password reset: its confirmation, shown until the person signs in or leaves. */
  resetDone: false,
};
const form = createForm<typeof initial, Field>(initial, {
  codes: { PH: 'mobile', CP: 'slider' },
  fieldOfValue: { areaId: 'mobile', callingCode: 'mobile' },
  editClearsForm: true,
});
export const $partnerSignIn = form.$values;
export const $partnerErrors = form.$errors;

export const setField = (key: 'mobile' | 'password', value: string) => form.set(key, value);

/** Opens the page: the second step owed by a hand-off, or the confirmation of a reset with its phone filled in. */
export function initPartnerSignIn(search: string) {
  if (new URLSearchParams(search).get('secondStep') === '1') $partnerSignIn.setKey('secondStep', true);
  const reset = takeResetHandOver();
  if (reset) $partnerSignIn.set({ ...$partnerSignIn.get(), resetDone: true, ...(reset.channel === 'phone' ? { areaId: reset.areaId, callingCode: reset.callingCode, mobile: reset.mobile } : {}) });
}
export function setArea(item: PhoneCodeItem) {
  form.set('areaId', item.id);
  form.set('callingCode', item.phoneCode);
}

/** The phone as E.164-ish subject for the slider, or a field error. */
async function phone(): Promise<{ mobile: string; subject: string } | null> {
  const s = $partnerSignIn.get();
  const checked = await identifierProblem({ channel: 'phone', mobile: s.mobile });
  if ('problem' in checked) return form.fail('mobile', checked.problem), null;
  return { mobile: checked.value, subject: `${s.callingCode}${checked.value}` };
}

/** Opens the slider for the current phone; true when it passed. */
export async function verifySlider(): Promise<boolean> {
  const id = await phone();
  if (!id) return false;
  const check = await ask({ kind: 'slider', scene: 'login', subject: id.subject });
  if (!check) return false;
  $partnerSignIn.set({ ...$partnerSignIn.get(), sliderCheck: check, sliderFor: id.subject });
  $partnerErrors.setKey('slider', undefined);
  return true;
}

/** A passed slider for this phone, asking for one when there is none; null when the person gave up. */
async function takeSliderCheck(subject: string): Promise<SliderCheck | null> {
  const s = $partnerSignIn.get();
  if (!s.sliderCheck || s.sliderFor !== subject) {
    if (!(await verifySlider())) return form.fail('slider', { key: 'partner.sliderRequired' }), null;
  }
  const check = $partnerSignIn.get().sliderCheck;
  // A check is single use on the server: whatever the answer, the next attempt needs a new slide.
  $partnerSignIn.set({ ...$partnerSignIn.get(), sliderCheck: null, sliderFor: '' });
  return check;
}

export async function submit() {
  const s = $partnerSignIn.get();
  if (s.busy) return;
  $partnerErrors.set({});
  const id = await phone();
  if (!id) return;
  if (!s.password) return void form.fail('password', { key: 'validation.passwordRequired' });
  await form.run(async () => {
    // A password that breaks today's rule asks for a new one first (cancelling signs out).
    let newPassword: string | undefined;
    let newPasswordSha1: string | undefined;
    if (!meetsPasswordRule(s.password)) {
      const answer = await ask({ kind: 'insecure' });
      if (!answer) return void (await (await loadAuthApi()).logout());
      [newPassword, newPasswordSha1] = await Promise.all([hashPassword(answer.newPassword), sha1Hex(answer.newPassword)]);
    }
    // For the gateway's offline breached-password check (issue 44), with the unsalted attempt only.
    const passwordSha1 = await sha1Hex(s.password);
    const passwordApi = await loadPasswordApi();
    const attempt = async (password: string, passwordVersion: 1 | 2): Promise<ApiResult<LoginAnswer> | null> => {
      const sliderCheck = await takeSliderCheck(id.subject);
      if (!sliderCheck) return null;
      return passwordApi.partnerLogin({
        phone: id.mobile,
        phoneCode: s.callingCode,
        password,
        passwordVersion,
        newPassword,
        newPasswordSha1,
        ...(passwordVersion === PASSWORD_VERSION.plain ? { passwordSha1 } : {}),
        captchaType: PARTNER_CAPTCHA_TYPE,
        sliderCheck,
      });
    };
    let result = await attempt(await hashPassword(s.password), PASSWORD_VERSION.plain);
    if (result && !result.ok && result.code === SALT_REQUIRED) {
      // SY9990: fetch the salt and sign in again with the salted hash (a fresh slide).
      const salt = await (await loadAuthApi()).userSalt({ type: 1, phone: id.mobile, phoneCode: s.callingCode });
      result = salt.ok ? await attempt(await hashPassword(s.password, salt.data.salt), PASSWORD_VERSION.salted) : salt;
    }
    if (!result) return;
    if (!result.ok) {
      track('sign_in_failed', { method: 'partner', code: result.code });
      return form.failure(result);
    }
    track('sign_in_succeeded', { method: 'partner' });
    if (result.data.secondStep) return void $partnerSignIn.set({ ...$partnerSignIn.get(), secondStep: true, newDevice: result.data.secondStep.newDevice ?? null });
    await partnerSignedIn(result.data);
  });
}

/** The gateway said yes (the password, or the passed second step): terms, main company, login case. */
export async function partnerSignedIn(answer: LoginAnswer) {
  if (answer.tracelessCheckResult !== TRACELESS.pass && answer.tracelessCheckResult !== TRACELESS.passTrusted) {
    return void form.fail('form', { key: 'errors.registerFailed' });
  }
  $partnerSignIn.setKey('redirecting', true);
  const { continueAfterSignIn } = await import('./after-sign-in');
  const failed = await continueAfterSignIn(answer, undefined, { partner: true });
  if (failed) {
    $partnerSignIn.set({ ...$partnerSignIn.get(), redirecting: false, secondStep: false });
    if (failed !== 'cancelled') form.fail('form', { code: failed.code, message: failed.message });
  }
}

/** The second step can no longer be passed: back to the sign-in form. */
export const partnerStartOver = () => $partnerSignIn.setKey('secondStep', false);
