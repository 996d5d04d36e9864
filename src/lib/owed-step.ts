import type { LoginAnswer, NewDeviceNotice } from '../schemas/sign-in-answers';

/**
 * The step a sign-in owes, as the sign-in pages keep it: the second-step screen shows; `newDevice` when it is the
 * new-device challenge (issue 44, where its code went, masked); `noTrust` when a company forbids "Trust this device".
 */
export interface OwedStep {
  secondStep: true;
  newDevice: NewDeviceNotice | null;
  noTrust: boolean;
}

/** From a first factor's answer. */
export const owedStepOf = (owed: NonNullable<LoginAnswer['secondStep']>): OwedStep => ({ secondStep: true, newDevice: owed.newDevice ?? null, noTrust: owed.trustForbidden === true });

/**
 * From the query of the credentials hand-off's redirect (functions/edge/handoff.ts): `secondStep=1` (two-step) or
 * `secondStep=device&to=…` (the new-device challenge), `trust=no`. Null when nothing is owed.
 */
export function owedStepInQuery(search: string): OwedStep | null {
  const query = new URLSearchParams(search);
  const step = query.get('secondStep');
  if (step !== '1' && step !== 'device') return null;
  return { secondStep: true, newDevice: step === 'device' ? { channel: 'email', to: query.get('to') ?? '' } : null, noTrust: query.get('trust') === 'no' };
}
