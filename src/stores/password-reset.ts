import * as ERR from '../schemas/error-names';
import { atom } from 'nanostores';
import type { MessageKey } from '../i18n/problem';
import { hashPassword, sha1Hex } from '../lib/password-hash';
import { handOverReset } from '../lib/reset-hand-over';
import type { PhoneCodeItem } from '../schemas/dictionaries';
import { newPasswordProblem } from '../schemas/password-rules';
import { realBrowser, type BrowserEnv } from './browser';
import { ask } from './dialog';
import { codeSendFlow, createForm } from './form';
import { EMPTY_IDENTIFIER, identifierProblem } from './identifier';

export type Channel = 'phone' | 'email';
type Field = 'mobile' | 'email' | 'code' | 'password' | 'confirm';

// The gateway calls and their zod schemas load with Get Code or the first reset, not with the page.
const loadPasswordApi = () => import('../api/password').then((m) => m.passwordApi);

const identifierField = (values: { channel: Channel }): Field => (values.channel === 'phone' ? 'mobile' : 'email');

/**
 * /forget and /navigator_forget: prove the phone (slider, then SMS) or e-mail with a code, then set a new
 * password twice, then back to the login page, which confirms the reset.
 */
const initial = {
  ...EMPTY_IDENTIFIER,
  code: '',
  password: '',
  confirm: '',
  step: 'form' as 'form' | 'done',
  notice: '' as MessageKey | '',
};
const form = createForm<typeof initial, Field>(initial, {
  // PH → the identifier, CD001x → the code, RS0001 → the confirmation, PW → the new password.
  codes: { PH: identifierField, CD001: 'code', [ERR.PASSWORDS_DIFFER]: 'confirm', PW: 'password' },
  fieldOfValue: { areaId: 'mobile', callingCode: 'mobile' },
  editClearsForm: true,
});
export const $reset = form.$values;
export const $resetErrors = form.$errors;
export const $resetCooldownUntil = atom(0);

let loginPath = '/login';
let env: BrowserEnv;
export function initPasswordReset(options: { loginPath: string }, browser: BrowserEnv = realBrowser()) {
  loginPath = options.loginPath;
  env = browser;
}

export const setField = <K extends 'mobile' | 'email' | 'code' | 'password' | 'confirm'>(key: K, value: string) => form.set(key, value);
export function setArea(item: PhoneCodeItem) {
  form.set('areaId', item.id);
  form.set('callingCode', item.phoneCode);
}

export function switchChannel(channel: Channel) {
  form.$values.set({ ...$reset.get(), channel, code: '', notice: '' });
  form.$errors.set({});
}

/** The identifier as the gateway wants it, or null after a field error. */
async function identifier(): Promise<{ loginType: 1; mobileCode: string; mobile: string; subject: string } | { loginType: 2; loginEmail: string } | null> {
  const s = $reset.get();
  const checked = await identifierProblem(s);
  if ('problem' in checked) return form.fail(identifierField(s), checked.problem), null;
  if (s.channel === 'email') return { loginType: 2, loginEmail: checked.value };
  return { loginType: 1, mobileCode: s.callingCode, mobile: checked.value, subject: `${s.callingCode}${checked.value}` };
}

const startOver = () => {
  form.$values.setKey('notice', '');
  form.$errors.set({});
};

/** Get Code: the slider for a phone, then the send. The answer never says whether the account exists. */
export const sendCode = codeSendFlow(form, $resetCooldownUntil, async () => {
  const id = await identifier();
  if (!id) return null;
  const passwordApi = await loadPasswordApi();
  if (id.loginType === 2) return passwordApi.resetSendCode({ loginType: 2, loginEmail: id.loginEmail });
  const sliderCheck = await ask({ kind: 'slider', scene: 'sms', subject: id.subject });
  if (!sliderCheck) return null;
  return passwordApi.resetSendCode({ loginType: 1, mobileCode: id.mobileCode, mobile: id.mobile, sliderCheck });
});

/** Checks the form, resets, then shows the success and goes back to the login page. */
export const submit = () =>
  form.run(async () => {
    startOver();
    const id = await identifier();
    if (!id) return;
    const s = $reset.get();
    const code = s.code.trim();
    if (!code) return form.fail('code', { key: 'validation.codeRequired' });
    const problem = newPasswordProblem(s.password, s.confirm);
    if (problem) return form.fail(problem.field, { key: problem.problem === 'confirmRequired' ? 'reset.confirmRequired' : `validation.${problem.problem}` });
    const hash = await hashPassword(s.password);
    const { subject: _subject, ...who } = id as typeof id & { subject?: string };
    const done = await (await loadPasswordApi()).reset({ ...who, code, newPassword: hash, newPasswordSubmit: hash, newPasswordSha1: await sha1Hex(s.password) });
    if (!done.ok) return form.failure(done);
    form.$values.set({ ...$reset.get(), step: 'done', code: '', password: '', confirm: '' });
    // The sign-in page says it (and keeps saying it) above its password tab, with this identifier filled in.
    handOverReset(id.loginType === 2 ? { channel: 'email', email: id.loginEmail } : { channel: 'phone', areaId: s.areaId, callingCode: id.mobileCode, mobile: id.mobile });
    form.leaving();
    env.navigate(loginPath);
  });
