import * as ERR from '../schemas/error-names';
import { authApi } from '../api/auth';
import type { ApiResult } from '../api/client';
import { problemText } from '../i18n/problem';
import type { Messages } from '../i18n';
import { destinations, REDIRECT_DELAY_MS, routeForLoginCase, routeForPartner } from '../lib/login-route';
import { RETURN_PARAM, returnPath } from '../lib/routes';
import type { LoginAnswer } from '../schemas/auth';
import { realBrowser, SESSION_KEYS, type BrowserEnv } from './browser';
import { ask } from './dialog';

/** The message of a failed call, as problemText words it (the gateway's own words, or the default ones). */
export function failureMessage(result: Extract<ApiResult<unknown>, { ok: false }>, errors: Messages['errors']): string {
  return problemText({ errors }, { code: result.code, message: result.message, traceId: result.traceId });
}

/** How the person signed in: `partner` for the partner (navigator) sign-in. */
export interface SignInOptions {
  partner?: boolean;
  /** The person registered just now to join a company by invitation (routeForLoginCase). */
  joining?: boolean;
}

/** Login-case refusals of a member whose company the platform blocked or let expire. */
const CLOSED_COMPANY_CODES: readonly string[] = [ERR.COMPANY_BLOCKED, ERR.COMPANY_VERIFICATION_EXPIRED];

/**
 * Asks for the login case and goes to its route (src/lib/login-route.ts), as sign-in does after its 500 ms,
 * for flows that end in a session: the partner sign-in, the password change and the sign-in links.
 * Returns the failure, if any, to show.
 */
export async function goOnByLoginCase(
  browser: BrowserEnv = realBrowser(),
  options: SignInOptions = {},
): Promise<Extract<ApiResult<unknown>, { ok: false }> | null> {
  if (returnTo(browser)) return null;
  const answer = await authApi.loginCase();
  if (!answer.ok) {
    // The person's company was closed by the platform: the session is ended, the message says why.
    if (CLOSED_COMPANY_CODES.includes(answer.code)) await authApi.logout();
    return answer;
  }
  const redirect = new URLSearchParams(browser.search).get('redirect') ?? undefined;
  const byCase = routeForLoginCase(answer.data, redirect, { joining: options.joining });
  const route = options.partner ? routeForPartner(byCase) : byCase;
  const { userLoginCase, companyInfo } = answer.data;
  if ((userLoginCase === 6 || userLoginCase === 7) && companyInfo) {
    browser.storage.setItem(SESSION_KEYS.companyName, companyInfo.name);
    if (userLoginCase === 7 && companyInfo.ports[0]) browser.storage.setItem(SESSION_KEYS.ports, JSON.stringify([companyInfo.ports[0]]));
  }
  if (route.kind === 'anonymous-then') await authApi.anonymousLogin(answer.data.registerMobile ? 1 : 2);
  setTimeout(() => browser.navigate(route.to), REDIRECT_DELAY_MS);
  return null;
}

/**
 * A sign-in that a page needing a session sent the person to (`?next=/create_account`) returns there; true
 * when it does. Only the portal's own session pages are accepted (returnPath).
 */
function returnTo(browser: BrowserEnv): boolean {
  const back = returnPath(new URLSearchParams(browser.search).get(RETURN_PARAM));
  if (back) setTimeout(() => browser.navigate(back), REDIRECT_DELAY_MS);
  return back !== undefined;
}

/**
 * What every sign-in does once the gateway said yes: agree again to changed terms (or be signed out), return
 * to the page that sent the person to sign in, else enter the main company straight away when there is one,
 * else go on by the login case.
 * 'cancelled' when the person declined the terms; a failure to show; null when the page is on its way.
 */
export async function continueAfterSignIn(
  answer: Pick<LoginAnswer, 'isMaster' | 'companyId' | 'needsConsent'>,
  browser: BrowserEnv = realBrowser(),
  options: SignInOptions = {},
): Promise<Extract<ApiResult<unknown>, { ok: false }> | 'cancelled' | null> {
  if (answer.needsConsent && !((await ask({ kind: 'agreement' })) && (await authApi.agreeToTerms()).ok)) {
    await authApi.logout();
    return 'cancelled';
  }
  if (returnTo(browser)) return null;
  if (answer.isMaster && answer.companyId && (await authApi.chooseAccount(answer.companyId)).ok) {
    setTimeout(() => browser.navigate(destinations.webApp), REDIRECT_DELAY_MS);
    return null;
  }
  return goOnByLoginCase(browser, options);
}
