import * as ERR from '../schemas/error-names';
import { opsApi } from '../api/ops';
import { problem, problemOf } from '../i18n/problem';
import { hashPassword } from '../lib/password-hash';
import { newPasswordProblem } from '../schemas/password-rules';
import { createForm } from './form';

type Phase = 'loading' | 'form' | 'dead' | 'done';

/**
 * The enrolment link's page: the token comes in the URL's fragment (never sent to a server or kept in a log),
 * is taken out of the address bar at once, and opens a pending TOTP secret shown as a QR code. Password and one
 * code of the app finish it; the link then works no more.
 */
const enrolValues = { phase: 'loading' as Phase, token: '', login: '', name: '', secret: '', qrSvg: '', password: '', confirm: '', code: '' };
export const opsEnrolForm = createForm<typeof enrolValues, 'password' | 'confirm' | 'code'>(
  enrolValues,
  { codes: { [ERR.OPERATOR_CODE_WRONG]: 'code', PW: 'password', [ERR.OPERATOR_ENROLMENT_LINK_INVALID]: 'form' } },
);

export async function openEnrolment(): Promise<void> {
  const form = opsEnrolForm;
  const token = location.hash.replace(/^#/, '');
  if (location.hash) history.replaceState(null, '', location.pathname);
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) {
    form.$values.setKey('phase', 'dead');
    form.fail('form', problem('ops.enrol.noLink'));
    return;
  }
  const [answer, { renderSVG }] = await Promise.all([opsApi.enrolStart(token), import('uqr')]);
  if (!answer.ok) {
    form.$values.setKey('phase', 'dead');
    form.fail('form', problemOf(answer));
    return;
  }
  const { login, name, secret, uri } = answer.data;
  form.$values.set({ ...form.$values.get(), phase: 'form', token, login, name, secret, qrSvg: renderSVG(uri, { border: 2 }) });
}

export async function finishEnrolment(): Promise<void> {
  const form = opsEnrolForm;
  const { token, password, confirm, code } = form.$values.get();
  // The one new-password rule of every password form (schemas/password-rules.ts), in the console's words.
  const passwordProblem = newPasswordProblem(password, confirm);
  const ok = form.check({
    ...(passwordProblem?.field === 'password' ? { password: problem('ops.enrol.passwordRule') } : {}),
    ...(passwordProblem?.field === 'confirm' ? { confirm: problem('ops.enrol.mismatch') } : {}),
    ...(/^\d{6}$/.test(code) ? {} : { code: problem('ops.enrol.codeInvalid') }),
  });
  if (!ok) return;
  await form.run(async () => {
    const answer = await opsApi.enrolFinish(token, await hashPassword(password), code);
    if (!answer.ok) {
      if (answer.code === ERR.OPERATOR_ENROLMENT_LINK_INVALID) form.$values.setKey('phase', 'dead');
      return form.failure(answer);
    }
    form.$values.set({ ...form.$values.get(), phase: 'done', token: '', secret: '', qrSvg: '', password: '', confirm: '', code: '' });
  });
}
