import { map } from 'nanostores';
import { companySsoApi } from '../api/company-sso';
import type { LoginAnswer } from '../schemas/auth';
import { realBrowser, type BrowserEnv } from './browser';
import { goOnSignedIn, providerReturn } from './provider-return';

/**
 * Signing in through a company's own identity provider in the browser (issue 43): "Continue with <company>" on
 * /login, then /company_sso_callback, one step at a time: checking → (link →) redirecting, or failed / cancelled.
 * The flow's secrets are never here: the edge keeps them in the HttpOnly flow cookie.
 */
export type CompanySsoStep = 'checking' | 'link' | 'redirecting' | 'cancelled' | 'failed';
export type Failure = { code: string; message: string; traceId?: string };

export interface CompanySsoState {
  step: CompanySsoStep;
  email: string;
  company: string;
  code: string;
  sent: boolean;
  busy: boolean;
  problem: Failure | null;
}

const initial: CompanySsoState = { step: 'checking', email: '', company: '', code: '', sent: false, busy: false, problem: null };
export const $companySso = map<CompanySsoState>({ ...initial });

const fail = (problem: Failure) => $companySso.set({ ...$companySso.get(), step: 'failed', busy: false, problem });

/** "Continue with <company>": to the provider's sign-in. A failure to show, else null. */
export async function goToCompany(email: string, browser: BrowserEnv = realBrowser()): Promise<Failure | null> {
  const answer = await companySsoApi.start(email);
  if (!answer.ok) return answer;
  browser.navigate(answer.data.authorizeUrl);
  return null;
}

async function signedIn(answer: LoginAnswer, browser: BrowserEnv) {
  $companySso.set({ ...$companySso.get(), step: 'redirecting', busy: false });
  await goOnSignedIn(answer, browser, fail);
}

/** /company_sso_callback: hands the provider's code, state and iss to the gateway and follows its answer. */
export async function takeCallback(lang: 'zh' | 'en', browser: BrowserEnv = realBrowser()) {
  const back = providerReturn(browser.search);
  if (!back) return $companySso.set({ ...initial, step: 'cancelled' });
  $companySso.set({ ...initial });
  const answer = await companySsoApi.callback({ code: back.code, state: back.state, ...(back.iss ? { iss: back.iss } : {}) });
  if (!answer.ok) return fail(answer);
  const data = answer.data;
  if ('needsLink' in data) {
    const company = lang === 'zh' && data.companyNameCn ? data.companyNameCn : data.companyNameEn;
    return $companySso.set({ ...$companySso.get(), step: 'link', email: data.email, company });
  }
  return signedIn(data, browser);
}

export const setLinkCode = (code: string) => $companySso.set({ ...$companySso.get(), code: code.replace(/\D/g, ''), problem: null });

const CODE_SENT = 'COMPANY_SSO_CODE_SENT';
export const isCodeSentNotice = (problem: Failure | null) => problem?.code === CODE_SENT;

/** The account's own proof: a code to its e-mail (the one the provider vouched for). */
export async function sendLinkCode() {
  const s = $companySso.get();
  if (s.busy) return;
  $companySso.set({ ...s, busy: true, problem: null });
  const sent = await companySsoApi.sendLinkCode();
  $companySso.set({ ...$companySso.get(), busy: false, sent: sent.ok || $companySso.get().sent, problem: sent.ok ? { code: CODE_SENT, message: '' } : sent });
}

/** Ties the account with its code and signs in. */
export async function submitLink(browser: BrowserEnv = realBrowser()) {
  const s = $companySso.get();
  if (s.busy) return;
  $companySso.set({ ...s, busy: true, problem: null });
  const answer = await companySsoApi.link(s.code);
  if (!answer.ok) return $companySso.set({ ...$companySso.get(), busy: false, problem: answer });
  await signedIn(answer.data, browser);
}
