import { map } from 'nanostores';
import { twoStepApi } from '../api/two-step';
import type { Problem } from '../i18n/problem';
import { problem } from '../i18n/problem';
import { hashPassword } from '../lib/password-hash';
import type { TwoStepProofRequest, TwoStepStatus } from '../schemas/two-step';

/**
 * Two-step verification in the user center: status, enrolment (QR code + key, one valid code to finish), the
 * recovery codes shown once, turning it off and new recovery codes (each proved by the current password or a
 * code), and an administrator's "require two-step" switch of a company.
 */
export type TwoStepPhase = 'loading' | 'off' | 'enrolling' | 'codes' | 'on' | 'proving';

export const $twoStep = map({
  phase: 'loading' as TwoStepPhase,
  status: null as TwoStepStatus | null,
  /** The pending secret (base32) and its otpauth:// URI while enrolling. */
  secret: '',
  uri: '',
  /** The QR code of `uri` as SVG markup, drawn in the page (uqr, loaded with enrolment): the key never leaves it. */
  qrSvg: '',
  code: '',
  /** Shown once, right after enrolment or a new batch. */
  recoveryCodes: [] as string[],
  /** What the proof is for. */
  proving: 'disable' as 'disable' | 'newCodes',
  password: '',
  proofCode: '',
  busy: false,
  error: null as Problem | null,
  notice: null as Problem | null,
});

const set = (values: Partial<ReturnType<typeof $twoStep.get>>) => $twoStep.set({ ...$twoStep.get(), ...values });
const failed = (answer: { code: string; message: string }) => set({ busy: false, error: { code: answer.code, message: answer.message } });

export async function loadTwoStep() {
  const answer = await twoStepApi.status();
  if (!answer.ok) return failed(answer);
  set({ status: answer.data, phase: answer.data.enabled ? 'on' : 'off', error: null });
}

export const setTwoStepField = (key: 'code' | 'password' | 'proofCode', value: string) => set({ [key]: value, error: null });

export async function startEnrolment() {
  set({ busy: true, error: null, notice: null });
  const [answer, { renderSVG }] = await Promise.all([twoStepApi.enrolStart(), import('uqr')]);
  if (!answer.ok) return failed(answer);
  const qrSvg = renderSVG(answer.data.uri, { border: 2 });
  set({ busy: false, phase: 'enrolling', secret: answer.data.secret, uri: answer.data.uri, qrSvg, code: '' });
}

export async function finishEnrolment() {
  const code = $twoStep.get().code.trim();
  if (!/^\d{6}$/.test(code)) return set({ error: problem('twoStep.codeInvalid') });
  set({ busy: true, error: null });
  const answer = await twoStepApi.enrolFinish(code);
  if (!answer.ok) return failed(answer);
  set({ busy: false, phase: 'codes', recoveryCodes: answer.data.recoveryCodes, secret: '', uri: '', qrSvg: '', code: '', notice: problem('twoStep.turnedOn') });
}

export const cancelEnrolment = () => set({ phase: 'off', secret: '', uri: '', qrSvg: '', code: '', error: null });

/** The recovery codes were saved: they are gone from the page for good. */
export async function closeRecoveryCodes() {
  set({ recoveryCodes: [] });
  await loadTwoStep();
}

export const askProof = (proving: 'disable' | 'newCodes') => set({ phase: 'proving', proving, password: '', proofCode: '', error: null, notice: null });
export const cancelProof = () => set({ phase: 'on', password: '', proofCode: '', error: null });

/** The proof as the gateway takes it: the password's hash (with the legacy salt), or the code as typed. */
async function proof(): Promise<TwoStepProofRequest | null> {
  const { password, proofCode, status } = $twoStep.get();
  if (password) return { password: await hashPassword(password, status?.passwordSalt ?? undefined) };
  const code = proofCode.trim();
  if (/^\d{6}$/.test(code)) return { kind: 'totp', code };
  if (/^[A-Za-z0-9\s-]{10,16}$/.test(code)) return { kind: 'recovery', code };
  return null;
}

export async function confirmProof() {
  const given = await proof();
  if (!given) return set({ error: problem('twoStep.needProof') });
  set({ busy: true, error: null });
  if ($twoStep.get().proving === 'disable') {
    const answer = await twoStepApi.disable(given);
    if (!answer.ok) return failed(answer);
    set({ busy: false, password: '', proofCode: '', notice: problem('twoStep.turnedOff') });
    return loadTwoStep();
  }
  const answer = await twoStepApi.newRecoveryCodes(given);
  if (!answer.ok) return failed(answer);
  set({ busy: false, phase: 'codes', recoveryCodes: answer.data.recoveryCodes, password: '', proofCode: '' });
}

/** An administrator's switch; the answer (or the refusal) per company. */
export const $companyTwoStep = map<Record<string, { required: boolean; busy: boolean; error: Problem | null }>>({});

export async function setCompanyRequirement(companyId: string, required: boolean) {
  $companyTwoStep.setKey(companyId, { required: !required, busy: true, error: null });
  const answer = await twoStepApi.requireForCompany(companyId, required);
  $companyTwoStep.setKey(
    companyId,
    answer.ok ? { required: answer.data.required, busy: false, error: null } : { required: !required, busy: false, error: { code: answer.code, message: answer.message } },
  );
}
