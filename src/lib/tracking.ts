/**
 * Funnel events of the portal's pages (the platform's tracking contract `agg-web/buriedPoint/add`, version
 * 9.3.11). Events wait in memory and leave in one `navigator.sendBeacon` when the page is hidden or left, so
 * tracking never delays a person, and a closed tab still sends. No framework and no library: the pages load this
 * module lazily, after their own work.
 *
 * What an event may say is fixed here: its name and a few keys with values from closed lists (page, language,
 * sign-in method, channel, error code). Never a phone number, e-mail address, name or any other input; no
 * identifier links one visit's events to another's. A visitor whose browser sends Global Privacy Control or
 * Do Not Track is not tracked at all: nothing is queued and nothing is sent (content/legal/… privacy, "Usage").
 */

import { TRACKING_BATCH_MAX, TRACKING_VERSION } from '../schemas/tracking';
import { readCookie } from './read-cookie';

/**
 * The browser's own "no usage statistics" mark, set when a person withdraws their consent in "Your data" (and
 * whenever the user center finds it withdrawn): this browser stops at once, signed in or not. The gateway also
 * drops events of a signed-in person who withdrew (data-rights/), on every browser.
 */
export const NO_TRACKING_COOKIE = 'portal_no_tracking';

/** The call the batch goes to (the edge strips /api). */
const TRACKING_PATH = '/api/agg-web/buriedPoint/add';

export type FunnelEvent = 'page_shown' | 'code_requested' | 'sign_in_succeeded' | 'sign_in_failed' | 'registered' | 'company_created' | 'join_requested';
export type SignInMethod = 'code' | 'password' | 'chain' | 'passkey' | 'partner';

/** The keys an event may carry, each with a closed set of values (types keep free text out). */
export interface EventKeys {
  method?: SignInMethod;
  channel?: 'phone' | 'email';
  /** The gateway's error code of a failed sign-in ('US0005'), never its message. */
  code?: string;
}

interface BuriedPoint {
  bpSource: 'portal';
  bpType: 'funnel';
  eventId: FunnelEvent;
  eventName: FunnelEvent;
  eventType: 'page' | 'action';
  keyList: { key: string; value: string }[];
  versionNumber: string;
}

interface PrivacySignals {
  globalPrivacyControl?: boolean;
  doNotTrack?: string | null;
}

/** False when the visitor asked not to be tracked: Global Privacy Control, Do Not Track ('1' or 'yes'), or a withdrawn consent (NO_TRACKING_COOKIE). */
export function trackingAllowed(
  nav: PrivacySignals = navigator as PrivacySignals,
  win: PrivacySignals = window as PrivacySignals,
  cookies: string = typeof document === 'undefined' ? '' : document.cookie,
): boolean {
  if (nav.globalPrivacyControl === true) return false;
  if (readCookie(cookies, NO_TRACKING_COOKIE) === '1') return false;
  return ![nav.doNotTrack, win.doNotTrack].some((value) => value === '1' || value === 'yes');
}

const queue: BuriedPoint[] = [];
let listening = false;

/** Error codes are short letters and digits; anything else is dropped rather than sent. */
const safeCode = (code: string | undefined) => (code && /^[A-Z]{2}\d{4,5}$/.test(code) ? code : undefined);

/** Queues one event; it leaves with the next batch (page hidden or left). */
export function track(eventId: FunnelEvent, keys: EventKeys = {}): void {
  // Outside a browser (the stores' unit tests) and under GPC / DNT there is nothing to do.
  if (typeof document === 'undefined' || typeof navigator.sendBeacon !== 'function' || !trackingAllowed()) return;
  const page = document.documentElement.dataset.page ?? 'unknown';
  const values: [string, string | undefined][] = [
    ['page', page],
    ['lang', document.documentElement.dataset.lang],
    ['method', keys.method],
    ['channel', keys.channel],
    ['code', safeCode(keys.code)],
  ];
  queue.push({
    bpSource: 'portal',
    bpType: 'funnel',
    eventId,
    eventName: eventId,
    eventType: eventId === 'page_shown' ? 'page' : 'action',
    keyList: values.filter((pair): pair is [string, string] => pair[1] !== undefined).map(([key, value]) => ({ key, value })),
    versionNumber: TRACKING_VERSION,
  });
  if (!listening) {
    listening = true;
    // 'visibilitychange' to hidden is the last moment a page is sure to see (mobile browsers may skip unload);
    // 'pagehide' covers a navigation away in the same tab.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flush();
    });
    addEventListener('pagehide', flush);
  }
  if (queue.length >= TRACKING_BATCH_MAX) flush();
}

/** Sends what is queued as one beacon (a JSON array); the browser delivers it after the page is gone. */
function flush(): void {
  if (!queue.length) return;
  const batch = queue.splice(0, TRACKING_BATCH_MAX);
  // Events queued before a withdrawal on this page go nowhere.
  if (!trackingAllowed()) return void queue.splice(0);
  navigator.sendBeacon(TRACKING_PATH, new Blob([JSON.stringify(batch)], { type: 'application/json' }));
}
