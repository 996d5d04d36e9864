import { map } from 'nanostores';
import { authApi } from '../api/auth';
import type { ApiResult } from '../api/client';
import { wechatApi } from '../api/wechat';
import type { PhoneCodeItem } from '../schemas/dictionaries';
import type { LoginAnswer } from '../schemas/auth';
import type { SocialProvider, WechatMethod } from '../schemas/wechat';
import { realBrowser, type BrowserEnv } from './browser';
import { ask } from './dialog';
import { goOnSignedIn, providerReturn } from './provider-return';

/**
 * Signing in with WeChat and WeCom in the browser: going to WeChat (the /login entry, the user center's "Tie"),
 * and /wechat_callback, one step at a time: checking → (phone →) redirecting, or failed / cancelled.
 * The flow's secrets are never here: the edge keeps them in the HttpOnly WeChat cookie.
 */
export type WechatStep = 'checking' | 'phone' | 'redirecting' | 'bound' | 'cancelled' | 'failed';
export type Failure = { code: string; message: string; traceId?: string };

export interface WechatState {
  step: WechatStep;
  provider: SocialProvider;
  nickname: string;
  areaId: string;
  callingCode: string;
  mobile: string;
  code: string;
  agreed: boolean;
  sent: boolean;
  /** Until when "Send code" waits (the gateway's 60 s between codes): the button counts down (issue 47). */
  cooldownUntil: number;
  busy: boolean;
  problem: Failure | null;
}

const initial: WechatState = { step: 'checking', provider: 'wechat', nickname: '', areaId: 'CN', callingCode: '+86', mobile: '', code: '', agreed: false, sent: false, cooldownUntil: 0, busy: false, problem: null };
export const $wechat = map<WechatState>({ ...initial });

/** WeChat's own browser says so in its user agent. */
export const inWechatBrowser = (userAgent: string) => /MicroMessenger/i.test(userAgent);

/** Goes to WeChat (or WeCom) for a sign-in, or, with `bind`, to tie it to the signed-in account. A failure to show, else null. */
export async function goToWechat(method: WechatMethod, options: { bind?: boolean; profile?: boolean } = {}, browser: BrowserEnv = realBrowser()): Promise<Failure | null> {
  const answer = options.bind ? await wechatApi.bind(method, options.profile) : await wechatApi.start(method, options.profile);
  if (!answer.ok) return answer;
  browser.navigate(answer.data.authorizeUrl);
  return null;
}

const fail = (problem: Failure) => $wechat.set({ ...$wechat.get(), step: 'failed', busy: false, problem });

/** A sign-in ended with a session (or owes the second step): on as every sign-in goes. */
async function signedIn(answer: LoginAnswer, browser: BrowserEnv) {
  $wechat.set({ ...$wechat.get(), step: 'redirecting', busy: false });
  await goOnSignedIn(answer, browser, fail);
}

/** /wechat_callback: hands WeChat's code and state to the gateway and follows its answer. */
export async function takeCallback(browser: BrowserEnv = realBrowser()) {
  const back = providerReturn(browser.search);
  if (!back) return $wechat.set({ ...initial, step: 'cancelled' });
  $wechat.set({ ...initial });
  const answer = await wechatApi.callback(back.code, back.state);
  if (!answer.ok) return fail(answer);
  const data = answer.data;
  if ('userId' in data) return signedIn(data, browser);
  if (data.bound) {
    $wechat.set({ ...$wechat.get(), step: 'bound', provider: data.bound, nickname: data.nickname ?? '' });
    return setTimeout(() => browser.navigate('/user_center#linked-accounts'), 800);
  }
  if (data.next === 'profile') {
    // Inside WeChat, the silent snsapi_base did not know the person: ask again for the profile (its unionid).
    const failure = await goToWechat('mp', { profile: true, bind: data.purpose === 'bind' }, browser);
    if (failure) fail(failure);
    return;
  }
  $wechat.set({ ...$wechat.get(), step: 'phone', provider: data.provider ?? 'wechat', nickname: data.nickname ?? '' });
}

export const setWechatField = (key: 'mobile' | 'code', value: string) => $wechat.set({ ...$wechat.get(), [key]: value, problem: null });
export const setWechatAgreed = (agreed: boolean) => $wechat.set({ ...$wechat.get(), agreed, problem: null });
export const setWechatArea = (item: PhoneCodeItem) => $wechat.set({ ...$wechat.get(), areaId: item.id, callingCode: item.phoneCode, problem: null });

const CODE_SENT = 'WECHAT_CODE_SENT';
/** The gateway's wait between two codes to one number (codes/service.ts), which the sign-in form counts down too. */
const RESEND_WAIT_MS = 60_000;

/** The phone's sign-in code, after the human check, by the ordinary code call. */
export async function sendPhoneCode() {
  const s = $wechat.get();
  if (s.busy) return;
  const mobile = s.mobile.replace(/[\s-]/g, '');
  $wechat.set({ ...s, busy: true, problem: null });
  const sliderCheck = await ask({ kind: 'slider', scene: 'sms', subject: `${s.callingCode}${mobile}` });
  let sent: ApiResult<unknown> | null = null;
  if (sliderCheck) sent = await authApi.sendSms({ phoneCode: s.areaId, mobile, type: 3, phoneCodeValue: s.callingCode, sliderCheck });
  $wechat.setKey('busy', false);
  if (sent?.ok) $wechat.set({ ...$wechat.get(), sent: true, cooldownUntil: Date.now() + RESEND_WAIT_MS, problem: { code: CODE_SENT, message: '' } });
  else if (sent) {
    // A code sent moments ago (CD0001): the wait the gateway names, counted down on the button.
    const retryAfter = (sent as { data?: { retryAfter?: unknown } }).data?.retryAfter;
    $wechat.set({ ...$wechat.get(), problem: sent, cooldownUntil: typeof retryAfter === 'number' ? Date.now() + retryAfter * 1000 : $wechat.get().cooldownUntil });
  }
}
export const isCodeSentNotice = (problem: Failure | null) => problem?.code === CODE_SENT;

/** Ties the WeChat to the phone (registering a new one) and signs in. */
export async function submitPhone(browser: BrowserEnv = realBrowser()) {
  const s = $wechat.get();
  if (s.busy) return;
  $wechat.set({ ...s, busy: true, problem: null });
  const answer = await wechatApi.bindPhone({ mobileCode: s.callingCode, mobile: s.mobile.replace(/[\s-]/g, ''), code: s.code.trim(), agreed: s.agreed as true });
  if (!answer.ok) return $wechat.set({ ...$wechat.get(), busy: false, problem: answer });
  await signedIn(answer.data, browser);
}
