import { atom } from 'nanostores';
import { problem } from '../i18n/problem';
import { opsApi } from '../api/ops';
import type { Problem } from '../i18n/problem';
import { problemOf } from '../i18n/problem';
import { OPS_LOGIN_PATH } from '../lib/routes';
import type { OperatorView } from '../schemas/ops';

/**
 * The signed-in operator of an operator page, loaded once and shared by the page's islands (the navigation,
 * the page itself). OP0001 sends the operator to /ops/login (api/client.ts refusal).
 */
export const $operator = atom<OperatorView | null>(null);
export const $operatorProblem = atom<Problem | null>(null);

let loading: Promise<void> | undefined;
export function loadOperator(): Promise<void> {
  loading ??= opsApi.me().then((answer) => {
    if (answer.ok) $operator.set(answer.data);
    else $operatorProblem.set(problemOf(answer));
  });
  return loading;
}

/** Signs out (the edge clears the operator cookie on this call) and goes to the sign-in page. */
export async function signOutOperator(): Promise<void> {
  await opsApi.logout();
  location.assign(`${OPS_LOGIN_PATH}?signedOut=1`);
}

/** What the last "add a passkey" said (added, or why not). */
export const $passkeyNotice = atom<{ ok: boolean; problem: Problem } | null>(null);

/** Adds a passkey for the signed-in operator (@simplewebauthn/browser loads only now). */
export async function addOperatorPasskey(): Promise<void> {
  $passkeyNotice.set(null);
  const [options, { startRegistration }] = await Promise.all([opsApi.passkeyRegisterOptions(), import('@simplewebauthn/browser')]);
  if (!options.ok) return $passkeyNotice.set({ ok: false, problem: problemOf(options) });
  const response = await startRegistration({ optionsJSON: options.data as never }).catch(() => null);
  if (!response) return $passkeyNotice.set({ ok: false, problem: problem('ops.home.passkeyFailed') });
  const added = await opsApi.passkeyRegister(response);
  $passkeyNotice.set(added.ok ? { ok: true, problem: problem('ops.home.passkeyAdded') } : { ok: false, problem: problemOf(added) });
}
