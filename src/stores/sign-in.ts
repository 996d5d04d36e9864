import type { NewDeviceNotice } from '../schemas/sign-in-answers';
import { RESEND_WAIT_MS } from '../lib/resend-wait';
import { atom } from 'nanostores';
import type { MessageKey } from '../i18n/problem';
import { readCookie } from '../lib/read-cookie';
import { readRemembered } from '../lib/remembered-sign-in';
import { takeResetHandOver } from '../lib/reset-hand-over';
import { SESSION_MARKER_COOKIE } from '../lib/session-marker';
import { DEFAULT_AREA_CODE_ID } from '../schemas/auth-rules';
import type { LoginAnswer } from '../schemas/auth';
import { realBrowser, type BrowserEnv } from './browser';
import { createForm } from './form';

/**
 * The sign-in form's state and its small actions. The flows (sign-in-flows.ts), the gateway calls and their
 * zod schemas load on the first call (or earlier, on the form's first focus or touch: `preloadSignIn()`),
 * not with the page: /login's first load stays small and quick.
 */
let flows: Promise<typeof import('./sign-in-flows')> | undefined;
// A failed load is forgotten, so the next click loads again: a dropped connection does not break sign-in until a
// reload. (lib/load-once.ts says the same, but it sits in the gateway chunk, which /login does not load at once.)
const loadFlows = () =>
  (flows ??= import('./sign-in-flows').catch((error) => {
    flows = undefined;
    throw error;
  }));

/** Starts loading what the first Get Code or sign-in needs, so that the click does not wait for it. */
export function preloadSignIn() {
  // A failure here is the click's to report (it loads again).
  loadFlows().catch(() => {});
}

export type Mode = 'code' | 'password' | 'chain';
export type Channel = 'phone' | 'email';
export type Field = 'mobile' | 'email' | 'code' | 'password' | 'usId' | 'agreed';

/** Everything the sign-in form shows. The flow functions below are the only writers. */
// The identifier's values are spelled out, not spread from identifier.ts's EMPTY_IDENTIFIER: that module
// loads with the flows, after /login's first paint.
const initial = {
  mode: 'code' as Mode,
  channel: 'phone' as Channel,
  areaId: DEFAULT_AREA_CODE_ID,
  callingCode: '+86',
  mobile: '',
  email: '',
  code: '',
  password: '',
  usId: '',
  agreed: false,
  remember: false,
  /** The sign-in call itself is running (busy also covers Get Code and its dialogs). */
  submitting: false,
  redirecting: false,
  /** A first factor passed and two-step verification is on: the second-step screen shows (loaded on demand). */
  secondStep: false,
  /** The second step owed is the new-device challenge: where its code went (masked). */
  newDevice: null as NewDeviceNotice | null,
  /** 'verification code sent' and similar good news. */
  notice: '' as MessageKey | '',
  /** No SMS provider could send (DL0010): the way out shows while this is set; a new number, mode or channel clears it. */
  smsDown: null as SmsDown | null,
};
/** The way out: offered with the ticket of the DL0010 answer, then the code sent by e-mail instead. */
export type SmsDown = { step: 'offered'; ticket: string } | { step: 'emailSent' };
/** The form itself: its flows in sign-in-flows.ts write through it. */
export const form = createForm<typeof initial, Field>(initial, {
  // PH: the phone or e-mail; CD: the code, when the code field shows; US/PW and the rest: the form.
  codes: { PH: (s) => (s.channel === 'phone' ? 'mobile' : 'email'), CD: (s) => (s.mode === 'code' ? 'code' : 'form') },
});
export const $signIn = form.$values;
export const $errors = form.$errors;
/** Epoch ms until which Get Code is disabled (a mirror of the server's resend wait). */
export const $codeCooldownUntil = atom(0);
export { RESEND_WAIT_MS };

/** The browser this form was started in (sign-in-flows.ts navigates with it). */
export let env: BrowserEnv;

export function initSignIn(options: { chain: boolean }, browser: BrowserEnv = realBrowser()) {
  env = browser;
  const saved = readRemembered();
  if (options.chain) $signIn.setKey('mode', 'chain');
  // The credentials hand-off of a person with two-step on arrives here with the second step owed.
  if (new URLSearchParams(browser.search).get('secondStep') === '1') $signIn.setKey('secondStep', true);
  // "Remember" is a choice made on the password tab: the identifier comes back there.
  if (saved?.loginWay === 'phone') $signIn.set({ ...$signIn.get(), mode: 'password', channel: 'phone', areaId: saved.areaId, callingCode: saved.callingCode, mobile: saved.mobile, remember: true });
  if (saved?.loginWay === 'email') $signIn.set({ ...$signIn.get(), mode: 'password', channel: 'email', email: saved.email, remember: true });
  // Straight after a password reset: its confirmation stays, over the password tab of the channel it used.
  const reset = options.chain ? null : takeResetHandOver();
  if (reset) $signIn.set({ ...$signIn.get(), mode: 'password', ...reset, notice: 'signIn.resetDone' });
  // On the way to an app's consent (/login?next=/connect?request=ID) the app's login_hint may fill the form; that
  // code loads only then, so /login's first load stays within its budget.
  if (!reset && browser.search.includes('connect')) void import('./login-hint').then(({ prefillFromLoginHint }) => prefillFromLoginHint(browser.search));
}

export const setField = <K extends keyof typeof initial>(key: K, value: (typeof initial)[K]) => {
  // The e-mail offer is for the number that could not be texted.
  if (key === 'mobile' && value !== $signIn.get().mobile) clearSmsDown();
  form.set(key, value);
};
const clearSmsDown = () => $signIn.setKey('smsDown', null);
export function setArea(item: { id: string; phoneCode: string }) {
  if (item.phoneCode !== $signIn.get().callingCode) clearSmsDown();
  form.set('areaId', item.id);
  form.set('callingCode', item.phoneCode);
}

export function switchTo(mode: Mode, channel?: Channel) {
  $signIn.set({ ...$signIn.get(), mode, channel: channel ?? $signIn.get().channel, notice: '', smsDown: null });
  $errors.set({});
}

/** Get Code: new-user checks, the agreement, identity and company, the slider for phones, then the send. */
export const sendCode = () => form.run(async () => (await loadFlows()).sendCode());

/** "E-mail me the code instead", offered when no SMS provider could send. */
export const sendCodeByEmailInstead = () => form.run(async () => (await loadFlows()).emailInstead());

/** The sign-in button, for whichever mode is showing. */
export const submit = () =>
  form.run(async () => {
    $errors.set({});
    $signIn.setKey('submitting', true);
    try {
      await (await loadFlows()).submit($signIn.get().mode);
    } finally {
      $signIn.setKey('submitting', false);
    }
  });

/** The second step was passed: go on as after any sign-in (terms, main company, login case). */
export const secondStepPassed = (answer: LoginAnswer) => loadFlows().then((flows) => flows.continueWith(answer));

/** The second step can no longer be passed: back to the sign-in form. */
export const startOver = () => $signIn.setKey('secondStep', false);

/** The page was opened with a session (the marker cookie the edge sets with it). */
export const arrivedSignedIn = () => readCookie(document.cookie, SESSION_MARKER_COOKIE) !== undefined;

/**
 * Arriving with a session skips the form; the company list and the case decide the route. `redirecting` is set
 * before the flows load, so the form never shows on the way; false when the session turned out to be gone.
 */
export async function resumeExistingSession(): Promise<boolean> {
  if (!arrivedSignedIn()) return false;
  $signIn.setKey('redirecting', true);
  return (await loadFlows()).resume();
}
