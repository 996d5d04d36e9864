import { map } from 'nanostores';
import { twoStepApi } from '../api/two-step';
import type { Problem } from '../i18n/problem';
import { problem } from '../i18n/problem';
import type { TwoStepStatus } from '../schemas/two-step';
import { STEP_UP_CANCELLED, withFreshProof } from './step-up-state';

/**
 * Two-step verification in the user center: status, enrolment (QR code + key, one valid code to finish), the
 * recovery codes shown once, turning it off and new recovery codes (each asked first), and an administrator's
 * "require two-step" switch of a company. Every change needs a fresh proof of the person: without one the
 * "Confirm it's you" dialog (stores/step-up.ts) asks for it and the change runs once more.
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
  /** What the confirmation (phase 'proving') is for. */
  proving: 'disable' as 'disable' | 'newCodes',
  busy: false,
  error: null as Problem | null,
  notice: null as Problem | null,
});

const set = (values: Partial<ReturnType<typeof $twoStep.get>>) => $twoStep.set({ ...$twoStep.get(), ...values });
/** A refusal in words; a cancelled "Confirm it's you" is no error, the change simply did not happen. */
const failed = (answer: { code: string; message: string }) =>
  set({ busy: false, error: answer.code === STEP_UP_CANCELLED ? null : { code: answer.code, message: answer.message } });

export async function loadTwoStep() {
  const answer = await twoStepApi.status();
  if (!answer.ok) return failed(answer);
  set({ status: answer.data, phase: answer.data.enabled ? 'on' : 'off', error: null });
}

export const setTwoStepField = (key: 'code', value: string) => set({ [key]: value, error: null });

export async function startEnrolment() {
  set({ busy: true, error: null, notice: null });
  const [answer, { renderSVG }] = await Promise.all([withFreshProof(twoStepApi.enrolStart), import('uqr')]);
  if (!answer.ok) return failed(answer);
  const qrSvg = renderSVG(answer.data.uri, { border: 2 });
  set({ busy: false, phase: 'enrolling', secret: answer.data.secret, uri: answer.data.uri, qrSvg, code: '' });
}

export async function finishEnrolment() {
  const code = $twoStep.get().code.trim();
  if (!/^\d{6}$/.test(code)) return set({ error: problem('twoStep.codeInvalid') });
  set({ busy: true, error: null });
  const answer = await withFreshProof(() => twoStepApi.enrolFinish(code));
  if (!answer.ok) return failed(answer);
  set({ busy: false, phase: 'codes', recoveryCodes: answer.data.recoveryCodes, secret: '', uri: '', qrSvg: '', code: '', notice: problem('twoStep.turnedOn') });
}

export const cancelEnrolment = () => set({ phase: 'off', secret: '', uri: '', qrSvg: '', code: '', error: null });

/** The recovery codes were saved: they are gone from the page for good. */
export async function closeRecoveryCodes() {
  set({ recoveryCodes: [] });
  await loadTwoStep();
}

/** Turning two-step off and new recovery codes ask first (phase 'proving'). */
export const askProof = (proving: 'disable' | 'newCodes') => set({ phase: 'proving', proving, error: null, notice: null });
export const cancelProof = () => set({ phase: 'on', error: null });

/** The person confirmed: the change, after "Confirm it's you" when the session has no fresh proof. */
export async function confirmProof() {
  const disabling = $twoStep.get().proving === 'disable';
  set({ phase: 'on', busy: true, error: null });
  if (disabling) {
    const answer = await withFreshProof(() => twoStepApi.disable());
    if (!answer.ok) return failed(answer);
    set({ busy: false, notice: problem('twoStep.turnedOff') });
    return loadTwoStep();
  }
  const answer = await withFreshProof(() => twoStepApi.newRecoveryCodes());
  if (!answer.ok) return failed(answer);
  set({ busy: false, phase: 'codes', recoveryCodes: answer.data.recoveryCodes });
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

/** An administrator's device rules of a company (issue 44): "confirm new devices", and forbid trusted devices. */
export const $companyDevices = map<Record<string, { confirmNewDevices: boolean; forbidTrustedDevices: boolean; busy: boolean; error: Problem | null }>>({});

/** Reads the company's rules (the part shows once they are known). */
export async function loadCompanyDevices(companyId: string) {
  const answer = await twoStepApi.companyDevices(companyId);
  if (answer.ok) $companyDevices.setKey(companyId, { ...answer.data, busy: false, error: null });
}

export async function setCompanyDevices(companyId: string, current: { confirmNewDevices: boolean; forbidTrustedDevices: boolean }, change: { confirmNewDevices?: boolean; forbidTrustedDevices?: boolean }) {
  $companyDevices.setKey(companyId, { ...current, ...change, busy: true, error: null });
  const answer = await twoStepApi.setCompanyDevices(companyId, change);
  $companyDevices.setKey(companyId, answer.ok ? { ...answer.data, busy: false, error: null } : { ...current, busy: false, error: { code: answer.code, message: answer.message } });
}
