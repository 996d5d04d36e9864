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
const loginValues = { login: '', password: '', code: '', phase: 'password' as Phase, challenge: '', triesLeft: -1 };
export const opsLoginForm = createForm<typeof loginValues, 'login' | 'password' | 'code'>(
  loginValues,
  { codes: { OP0004: 'password', OP0008: 'code', OP0009: 'code' }, editClearsForm: true },
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
    form.$values.set({ ...form.$values.get(), phase: 'code', challenge: answer.data.challenge, password: '', code: '', triesLeft: -1 });
  });
}

export async function submitCode(): Promise<void> {
  const form = opsLoginForm;
  const { challenge, code } = form.$values.get();
  if (!form.check(/^\d{6}$/.test(code) ? {} : { code: problem('ops.login.codeInvalid') })) return;
  await form.run(async () => {
    const answer = await opsApi.totp(challenge, code);
    if (answer.ok) {
      form.leaving();
      location.assign(opsReturnPath(new URLSearchParams(location.search).get(RETURN_PARAM)) ?? '/ops');
      return;
    }
    if (answer.code === 'OP0007' || answer.code === 'OP0005' || answer.code === 'OP0006') {
      // The challenge is gone (or no try is left this hour): back to the first step, saying why.
      form.$values.set({ ...form.$values.get(), phase: 'password', challenge: '', code: '' });
    }
    const triesLeft = (answer.data as { triesLeft?: number } | undefined)?.triesLeft;
    form.$values.setKey('triesLeft', typeof triesLeft === 'number' ? triesLeft : -1);
    form.failure(answer);
  });
}

export const startOver = () => opsLoginForm.reset({ login: opsLoginForm.$values.get().login });
