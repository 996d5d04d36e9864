import type { LoginAnswer } from '../schemas/auth';
import type { BrowserEnv } from './browser';

// Where to go next (and its calls) loads once the sign-in has landed, not with the page (issue 31).
const afterSignIn = () => import('./after-sign-in');

/**
 * What the pages a sign-in provider sends the person back to (/wechat_callback, /company_sso_callback) share: the
 * provider's answer read from the query string, and a sign-in that ended there going on as every sign-in goes.
 */
export interface ProviderReturn {
  code: string;
  state: string;
  /** The provider's issuer (RFC 9207), when it names one. */
  iss: string | null;
}

/** The provider's code and state from the page's query; null when there are none (the person cancelled there). */
export function providerReturn(search: string): ProviderReturn | null {
  const query = new URLSearchParams(search);
  const code = query.get('code');
  const state = query.get('state');
  return code && state ? { code, state, iss: query.get('iss') } : null;
}

/**
 * The gateway signed the person in: to the second step when it is owed, else on by the login case
 * (after-sign-in.ts). Declining changed terms goes back to /login; a failure on the way is handed to `fail`.
 */
export async function goOnSignedIn(answer: LoginAnswer, browser: BrowserEnv, fail: (problem: { code: string; message: string; traceId?: string }) => void): Promise<void> {
  if (answer.secondStep) return browser.navigate('/login?secondStep=1');
  const outcome = await (await afterSignIn()).continueAfterSignIn(answer, browser);
  if (outcome === 'cancelled') browser.navigate('/login');
  else if (outcome) fail(outcome);
}
