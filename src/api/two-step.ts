import * as z from 'zod/mini';
import { loginAnswer } from '../schemas/sign-in-answers';
import {
  companyDevicesAnswer,
  enrolmentStart,
  owedStepAnswer,
  recoveryCodesAnswer,
  twoStepStatus,
  type SecondFactorKind,
} from '../schemas/two-step';
import { callGateway } from './client';

/** One function per gateway call of two-step verification (loaded on demand: the second step, the user center). */
export const twoStepApi = {
  /** The second step of a sign-in; the edge adds the challenge from its HttpOnly cookie. */
  /** `trust`: "Trust this device for 30 days" (issue 44). */
  verify: (kind: SecondFactorKind, code: string, trust = false) => callGateway('agg-web/user/twoStep/verify', loginAnswer, { body: { kind, code, ...(trust ? { trust } : {}) } }),
  /** What the second-step screen says and offers (issue 44): the new-device challenge's address, "Trust this device". */
  owed: () => callGateway('agg-web/user/twoStep/challenge', owedStepAnswer, { method: 'GET' }),
  status: () => callGateway('agg-web/user/twoStep/status', twoStepStatus, { method: 'GET' }),
  enrolStart: () => callGateway('agg-web/user/twoStep/enrol/start', enrolmentStart),
  enrolFinish: (code: string) => callGateway('agg-web/user/twoStep/enrol/finish', recoveryCodesAnswer, { body: { code } }),
  /** Both need a fresh proof of the person (stores/step-up.ts withFreshProof). */
  disable: () => callGateway('agg-web/user/twoStep/disable', z.boolean(), { body: {} }),
  newRecoveryCodes: () => callGateway('agg-web/user/twoStep/recoveryCodes', recoveryCodesAnswer, { body: {} }),
  /** The company's device rules (issue 44); a rule left out stays as it is. */
  companyDevices: (companyId: string) => callGateway(`agg-web/company/devices?${new URLSearchParams({ companyId })}`, companyDevicesAnswer, { method: 'GET' }),
  setCompanyDevices: (companyId: string, change: { confirmNewDevices?: boolean; forbidTrustedDevices?: boolean }) =>
    callGateway('agg-web/company/devices', companyDevicesAnswer, { body: { companyId, ...change } }),
  requireForCompany: (companyId: string, required: boolean) =>
    callGateway('agg-web/company/twoStep', z.object({ required: z.boolean() }), { body: { companyId, required } }),
};
