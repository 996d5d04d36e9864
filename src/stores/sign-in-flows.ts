import * as ERR from '../schemas/error-names';
import type { authApi as AuthApi } from '../api/auth';
import { SALT_REQUIRED, type ApiResult } from '../api/result';
import { hashPassword, sha1Hex } from '../lib/password-hash';
import { readCookie } from '../lib/read-cookie';
import { remember } from '../lib/remembered-sign-in';
import { track, type SignInMethod } from '../lib/tracking';
import { PORT_TYPE_COOKIE, ZHOUSHAN_PORT_ID, ZHOUSHAN_SOURCE } from '../lib/source-origin';
import type { LoginAnswer } from '../schemas/auth';
import { LOGIN_CLIENT, meetsPasswordRule, PASSWORD_VERSION, TRACELESS } from '../schemas/auth-rules';
import { ask, type NewUserAnswers } from './dialog';
import { identifierProblem } from './identifier';
import { $codeCooldownUntil, $errors, $signIn, RESEND_WAIT_MS, env, form, type Mode } from './sign-in';

/**
 * The sign-in flows: Get Code, the three sign-ins, the slider and salt retries, and the route afterwards.
 * Loaded with the gateway calls on the form's first use (sign-in.ts), not with the page.
 */
let api: Promise<typeof import('../api/auth')> | undefined;
// A failed load is forgotten, so the next use loads again (as lib/load-once.ts does; importing it here would add
// the gateway chunk to the list /login's sign-in chunk preloads with this one).
const loadApi = () =>
  (api ??= import('../api/auth').catch((error) => {
    api = undefined;
    throw error;
  }));
const gateway = async (): Promise<typeof AuthApi> => (await loadApi()).authApi;

// The gateway calls start loading with the flows, so that the first click does not wait for them; a failure here
// is the click's to report.
loadApi().catch(() => {});

/** The new user's answers, kept until the code sign-in registers them. */
let newUser: NewUserAnswers | undefined;

/** The identifier as the gateway wants it, or a field error. */
async function identifier(): Promise<{ ok: true; phone?: { mobileCode: string; mobile: string }; email?: string; subject: string } | { ok: false }> {
  const s = $signIn.get();
  // The exact mainland pattern is checked by the gateway with libphonenumber; digits only here.
  const checked = await identifierProblem(s);
  if ('problem' in checked) return { ok: form.fail(s.channel === 'phone' ? 'mobile' : 'email', checked.problem) };
  const value = checked.value;
  return s.channel === 'phone' ? { ok: true, phone: { mobileCode: s.callingCode, mobile: value }, subject: `${s.callingCode}${value}` } : { ok: true, email: value, subject: value };
}

/**
 * Get Code (inside the form's busy run): new-user checks, the agreement, create or join (and, creating, identity and
 * company), the slider for phones, then the send.
 */
export async function sendCode() {
  $errors.set({});
  $signIn.setKey('notice', '');
  const id = await identifier();
  if (!id.ok) return;
  const loginType = id.phone ? 1 : 2;
  const auth = await gateway();
  const isNew = await auth.checkIsNewUser({ loginType, ...id.phone, loginEmail: id.email });
  if (!isNew.ok) return form.failure(isNew);
  if (isNew.data) {
    if (!(await ask({ kind: 'agreement' }))) return;
    $signIn.setKey('agreed', true);
    const answers = await ask({ kind: 'newUser' });
    if (!answers) return;
    newUser = answers;
  } else {
    newUser = undefined;
  }
  let sent: ApiResult<unknown>;
  if (id.phone) {
    const sliderCheck = await ask({ kind: 'slider', scene: 'sms', subject: id.subject, registering: newUser !== undefined });
    if (!sliderCheck) return;
    const s = $signIn.get();
    sent = await auth.sendSms({ phoneCode: s.areaId, mobile: id.phone.mobile, type: 3, phoneCodeValue: id.phone.mobileCode, sliderCheck });
  } else {
    sent = await auth.sendEmailCode({ emailAddress: id.email!, type: 3 });
  }
  if (!sent.ok) {
    // No SMS provider can send: the form offers the way out (the code by e-mail, a password, a passkey) instead of an error.
    const ticket = sent.code === ERR.DELIVERY_NO_SMS_PROVIDER ? (sent.data as { emailTicket?: unknown } | null | undefined)?.emailTicket : undefined;
    if (typeof ticket === 'string') {
      $signIn.setKey('smsDown', { step: 'offered', ticket });
      return;
    }
    const retryAfter = (sent.data as { retryAfter?: number } | undefined)?.retryAfter;
    if (retryAfter) $codeCooldownUntil.set(Date.now() + retryAfter * 1000);
    return form.failure(sent);
  }
  $codeCooldownUntil.set(Date.now() + RESEND_WAIT_MS);
  $signIn.setKey('notice', 'signIn.codeSent');
  track('code_requested', { channel: id.phone ? 'phone' : 'email' });
}

/** The code by e-mail instead of a text (the ticket of the DL0010 answer); the code then goes in the code field. */
export async function emailInstead() {
  $errors.set({});
  const down = $signIn.get().smsDown;
  if (down?.step !== 'offered') return;
  const sent = await (await gateway()).emailInstead({ emailTicket: down.ticket });
  if (!sent.ok) {
    // A used or expired ticket: the offer goes, and Get code asks again.
    if (sent.code === ERR.DELIVERY_FALLBACK_EXPIRED) $signIn.setKey('smsDown', null);
    return form.failure(sent);
  }
  $signIn.setKey('smsDown', { step: 'emailSent' });
  $codeCooldownUntil.set(Date.now() + RESEND_WAIT_MS);
  track('code_requested', { channel: 'email' });
}

/** The sign-in button (inside the form's busy run), for the mode showing. */
export function submit(mode: Mode) {
  if (mode === 'code') return submitCode();
  if (mode === 'chain') return submitChain();
  return submitPassword();
}

async function submitCode() {
  const auth = await gateway();
  const id = await identifier();
  if (!id.ok) return;
  const s = $signIn.get();
  if (!s.code.trim()) return form.fail('code', { key: 'validation.codeRequired' });
  if (!s.agreed) return form.fail('agreed', { key: 'validation.agreementRequired' });
  const body = {
    loginType: (id.phone ? 1 : 2) as 1 | 2,
    ...id.phone,
    loginEmail: id.email,
    code: s.code.trim(),
    agreed: true as const,
    ...newUser,
    // A new user arriving from the zhoushan site services its port: the administrator form starts with it.
    ...(newUser && !('joining' in newUser) && readCookie(document.cookie, PORT_TYPE_COOKIE) === ZHOUSHAN_SOURCE ? { portId: ZHOUSHAN_PORT_ID } : {}),
  };
  await completeLogin((nvcvalStr) => auth.quickLogin({ ...body, nvcvalStr }), id.subject, 'code');
}

async function submitPassword() {
  const auth = await gateway();
  const id = await identifier();
  if (!id.ok) return;
  const s = $signIn.get();
  if (!s.password) return form.fail('password', { key: 'validation.passwordRequired' });
  const safer = await askForSaferPassword(s.password);
  if (safer === null) return;
  const breachCheck = await breachCheckOf(s.password, safer);
  const login = (hash: string, version: 1 | 2, nvcvalStr?: string) =>
    id.phone
      ? auth.phonePasswordLogin({ ...id.phone, password: hash, passwordVersion: version, ...breachCheck(version), loginType: 101, captchaType: 3, nvcvalStr })
      : auth.emailPasswordLogin({ loginEmail: id.email!, loginPassword: hash, passwordVersion: version, ...breachCheck(version), captchaType: 3, nvcvalStr, ...LOGIN_CLIENT });
  const saltQuery = id.phone ? { type: 1 as const, phone: id.phone.mobile, phoneCode: id.phone.mobileCode } : { type: 2 as const, loginName: id.email };
  const ok = await completeLogin(await withSaltRetry(s.password, login, saltQuery), id.subject, 'password');
  if (ok) {
    remember(
      s.remember
        ? s.channel === 'phone'
          ? { loginWay: 'phone', callingCode: s.callingCode, areaId: s.areaId, mobile: id.phone!.mobile }
          : { loginWay: 'email', email: id.email! }
        : null,
    );
  }
}

async function submitChain() {
  const auth = await gateway();
  const s = $signIn.get();
  const usId = s.usId.trim();
  if (!usId) return form.fail('usId', { key: 'validation.userIdRequired' });
  if (!s.password) return form.fail('password', { key: 'validation.passwordRequired' });
  const safer = await askForSaferPassword(s.password);
  if (safer === null) return;
  const breachCheck = await breachCheckOf(s.password, safer);
  const login = (hash: string, version: 1 | 2, nvcvalStr?: string) =>
    auth.chainLogin({ usId, password: hash, passwordVersion: version, ...breachCheck(version), captchaType: 3, nvcvalStr });
  await completeLogin(await withSaltRetry(s.password, login, { type: 3, loginName: usId }), usId, 'chain');
}

/**
 * A password that breaks today's rule asks for a new one first. Returns the new password (as typed),
 * undefined when the password is fine, or null when the person cancelled (the cookies are cleared).
 */
async function askForSaferPassword(password: string): Promise<string | undefined | null> {
  if (meetsPasswordRule(password)) return undefined;
  const answer = await ask({ kind: 'insecure' });
  if (!answer) {
    await (await gateway()).logout();
    return null;
  }
  return answer.newPassword;
}

/**
 * The new password's fields of a sign-in (its SHA-256 and SHA-1) and the SHA-1 of the password itself for the
 * gateway's offline breached-password check (issue 44), sent only with a version-2 (unsalted) attempt.
 */
async function breachCheckOf(password: string, newPassword: string | undefined) {
  const [passwordSha1, fresh] = await Promise.all([
    sha1Hex(password),
    newPassword === undefined ? undefined : Promise.all([hashPassword(newPassword), sha1Hex(newPassword)]),
  ]);
  const chosen = fresh ? { newPassword: fresh[0], newPasswordSha1: fresh[1] } : {};
  return (version: 1 | 2) => ({ ...chosen, ...(version === 2 ? { passwordSha1 } : {}) });
}

type PasswordLogin = (hash: string, version: 1 | 2, nvcvalStr?: string) => Promise<ApiResult<LoginAnswer>>;

/** SY9990 means this account needs its salt; fetch it and sign in again with the salted hash. */
async function withSaltRetry(password: string, login: PasswordLogin, saltQuery: Parameters<typeof AuthApi.userSalt>[0]) {
  const auth = await gateway();
  const plain = await hashPassword(password);
  let version: 1 | 2 = PASSWORD_VERSION.plain;
  let hash = plain;
  return async (nvcvalStr?: string): Promise<ApiResult<LoginAnswer>> => {
    const first = await login(hash, version, nvcvalStr);
    if (first.ok || first.code !== SALT_REQUIRED) return first;
    const salt = await auth.userSalt(saltQuery);
    if (!salt.ok) return salt;
    version = PASSWORD_VERSION.salted;
    hash = await hashPassword(password, salt.data.salt);
    return login(hash, version, nvcvalStr);
  };
}

/** Runs a sign-in call, with the slider when the risk check asks for it, then routes by login case. */
async function completeLogin(attempt: (nvcvalStr?: string) => Promise<ApiResult<LoginAnswer>>, subject: string, method: SignInMethod): Promise<boolean> {
  let result = await attempt();
  if (result.ok && result.data.tracelessCheckResult === TRACELESS.sliderRequired) {
    // Nothing is being signed in while the person works the slider: the button behind it says so.
    $signIn.setKey('submitting', false);
    const check = await ask({ kind: 'slider', scene: 'login', subject });
    if (!check) return false;
    $signIn.setKey('submitting', true);
    result = await attempt(JSON.stringify(check));
  }
  if (!result.ok) {
    track('sign_in_failed', { method, code: result.code });
    // The failure that makes the next try need the security check says so, before the slider surprises anyone.
    if ((result.data as { humanCheckNext?: unknown } | null | undefined)?.humanCheckNext === true) {
      form.fail('form', [{ code: result.code, message: result.message }, { key: 'signIn.checkComesNext' }]);
    } else form.failure(result);
    return false;
  }
  track('sign_in_succeeded', { method });
  if (result.data.newUser) track('registered', { method });
  // Two-step verification is on: no session yet; the second-step screen takes over.
  if (result.data.secondStep) {
    $signIn.setKey('newDevice', result.data.secondStep.newDevice ?? null);
    $signIn.setKey('secondStep', true);
    return false;
  }
  return continueWith(result.data);
}

/** A sign-in the gateway said yes to (first factor, or the passed second step): terms, main company, login case. */
export async function continueWith(answer: LoginAnswer): Promise<boolean> {
  const { tracelessCheckResult } = answer;
  if (tracelessCheckResult !== TRACELESS.pass && tracelessCheckResult !== TRACELESS.passTrusted) {
    return form.fail('form', { key: 'errors.registerFailed' });
  }
  // Terms agreed again if they changed, then the return path, the main company or the login case.
  const { continueAfterSignIn } = await import('./after-sign-in');
  // Someone who registered just now to join a company goes to the join form, not to the question they answered.
  const outcome = await continueAfterSignIn(answer, env, { joining: answer.newUser === true && newUser !== undefined && 'joining' in newUser });
  if (outcome === 'cancelled') return false;
  if (outcome) form.failure(outcome);
  else $signIn.setKey('redirecting', true);
  return true;
}

/** Goes on after a sign-in answered elsewhere (a passkey) exactly as after the form's own sign-ins. */
export const completeSignIn = (result: ApiResult<LoginAnswer>) => completeLogin(async () => result, '', 'passkey');

/** Asks the gateway for this person's login case and goes on as after-sign-in.ts says (loaded now). */
export async function routeByLoginCase(): Promise<boolean> {
  const { goOnByLoginCase } = await import('./after-sign-in');
  const failed = await goOnByLoginCase(env);
  if (failed) {
    $signIn.setKey('redirecting', false);
    form.failure(failed);
  }
  return !failed;
}

/** With a session marker: the company list and the login case decide the route; false when the session is gone. */
export async function resume(): Promise<boolean> {
  $signIn.setKey('redirecting', true);
  const companies = await (await gateway()).companyList();
  if (!companies.ok) {
    $signIn.setKey('redirecting', false);
    return false;
  }
  return routeByLoginCase();
}
