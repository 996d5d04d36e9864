import * as ERR from '../schemas/error-names';
import { opsApi } from '../api/ops';
import { problem } from '../i18n/problem';
import { hashPassword } from '../lib/password-hash';
import { opsReturnPath, RETURN_PARAM } from '../lib/routes';
import { createForm } from './form';

type Phase = 'password' | 'code';

/**
 * The operator sign-in: login and password, then the app's code. The password step answers a challenge (no
 * session); only the code step starts the session, which the edge keeps in the HttpOnly operator cookie.
 */
const loginValues = { login: '', password: '', code: '', phase: 'password' as Phase, challenge: '', triesLeft: -1, passkey: false };
export const opsLoginForm = createForm<typeof loginValues, 'login' | 'password' | 'code'>(
  loginValues,
  { codes: { [ERR.OPERATOR_WRONG_LOGIN_OR_PASSWORD]: 'password', [ERR.OPERATOR_CODE_WRONG]: 'code', [ERR.OPERATOR_CODE_ALREADY_USED]: 'code' }, editClearsForm: true },
);

export async function submitPassword(): Promise<void> {
  const form = opsLoginForm;
  const { login, password } = form.$values.get();
  const ok = form.check({
    ...(login.trim() ? {} : { login: problem('ops.login.loginRequired') }),
    ...(password ? {} : { password: problem('ops.login.passwordRequired') }),
  });
  if (!ok) return;
  await form.run(async () => {
    const answer = await opsApi.login(login.trim(), await hashPassword(password));
    if (!answer.ok) return form.failure(answer);
    const passkey = answer.data.methods.includes('passkey');
    form.$values.set({ ...form.$values.get(), phase: 'code', challenge: answer.data.challenge, password: '', code: '', triesLeft: -1, passkey });
  });
}

export async function submitCode(): Promise<void> {
  const form = opsLoginForm;
  const { challenge, code } = form.$values.get();
  if (!form.check(/^\d{6}$/.test(code) ? {} : { code: problem('ops.login.codeInvalid') })) return;
  await form.run(async () => {
    const answer = await opsApi.totp(challenge, code);
    if (answer.ok) return signedIn();
    if (answer.code === ERR.OPERATOR_SIGN_IN_EXPIRED || answer.code === ERR.OPERATOR_LOGIN_GUESSES_CAPPED || answer.code === ERR.OPERATOR_NETWORK_GUESSES_CAPPED) {
      // The challenge is gone (or no try is left this hour): back to the first step, saying why.
      form.$values.set({ ...form.$values.get(), phase: 'password', challenge: '', code: '' });
    }
    const triesLeft = (answer.data as { triesLeft?: number } | undefined)?.triesLeft;
    form.$values.setKey('triesLeft', typeof triesLeft === 'number' ? triesLeft : -1);
    form.failure(answer);
  });
}

/** The session started (the edge set the operator cookie): on to the page asked for, else /ops. */
function signedIn() {
  opsLoginForm.leaving();
  location.assign(opsReturnPath(new URLSearchParams(location.search).get(RETURN_PARAM)) ?? '/ops');
}

/** The second step with a passkey (@simplewebauthn/browser loads only now). */
export async function submitPasskey(): Promise<void> {
  const form = opsLoginForm;
  const { challenge } = form.$values.get();
  await form.run(async () => {
    const [options, { startAuthentication }] = await Promise.all([opsApi.passkeyStepOptions(challenge), import('@simplewebauthn/browser')]);
    if (!options.ok) return form.failure(options);
    const response = await startAuthentication({ optionsJSON: options.data as never }).catch(() => null);
    if (!response) return void form.fail('form', problem('ops.login.passkeyFailed'));
    const answer = await opsApi.passkeyStep(challenge, response);
    if (answer.ok) return signedIn();
    form.failure(answer);
  });
}

export const startOver = () => opsLoginForm.reset({ login: opsLoginForm.$values.get().login });
