import { loginLinkApi } from '../api/login-links';
import { TRACELESS } from '../schemas/auth';
import { LINK_PARAM, linkTokenSchema } from '../schemas/login-links';
import { realBrowser, type BrowserEnv } from './browser';
import { createForm } from './form';
import { identifierProblem } from './identifier';
import { problemOf } from '../i18n/problem';

// Where to go next (and its calls) loads once the sign-in or the change has landed, not with the page (issue 31).
const afterSignIn = () => import('./after-sign-in');

export type LinkKind = 'pass' | 'share';

/**
 * /pass_email_login and /share_login. With a token in the URL the page offers one "Sign in" button: the
 * link is used on that click, never on page load, so a mail scanner that opens it does not use it up.
 * Without a token, /pass_email_login asks for an address and sends a link.
 */
const initial = {
  phase: 'request' as 'request' | 'sent' | 'confirm' | 'no-link' | 'redirecting',
  email: '',
  sentTo: '',
};
const form = createForm<typeof initial, 'email'>(initial, { codes: { PH: 'email' }, editClearsForm: true });
export const $linkSignIn = form.$values;
export const $linkErrors = form.$errors;

let kind: LinkKind;
let token = '';
let env: BrowserEnv;

export function initLinkSignIn(linkKind: LinkKind, browser: BrowserEnv = realBrowser()) {
  kind = linkKind;
  env = browser;
  const fromUrl = new URLSearchParams(env.search).get(LINK_PARAM[linkKind]) ?? '';
  token = linkTokenSchema.safeParse(fromUrl).success ? fromUrl : '';
  if (fromUrl && !token) form.fail('form', { key: 'errors.linkInvalid' });
  $linkSignIn.setKey('phase', token ? 'confirm' : linkKind === 'pass' ? 'request' : 'no-link');
}

export const setEmail = (value: string) => form.set('email', value);

/** Back to the address form, e.g. after a used or expired link. */
export function askAgain() {
  $linkSignIn.set({ ...$linkSignIn.get(), phase: 'request', sentTo: '' });
  $linkErrors.setKey('form', undefined);
}

export const sendLink = () =>
  form.run(async () => {
    const checked = await identifierProblem({ channel: 'email', mobile: '', email: $linkSignIn.get().email });
    if ('problem' in checked) return void form.fail('email', checked.problem);
    const result = await loginLinkApi.sendPassEmail({ loginEmail: checked.value });
    if (!result.ok) return form.failure(result);
    $linkSignIn.set({ ...$linkSignIn.get(), phase: 'sent', sentTo: checked.value });
  });

/** Uses the link (one click, however often it is pressed) and goes on as any sign-in does. */
export const hasLink = () => token !== '';

export function signInWithLink() {
  if (!token) return Promise.resolve();
  return form.run(async () => {
    $linkErrors.setKey('form', undefined);
    const result = kind === 'pass' ? await loginLinkApi.passEmailLogin(token) : await loginLinkApi.shareLogin(token);
    if (!result.ok) return void form.fail('form', problemOf(result));
    if (result.data.tracelessCheckResult !== TRACELESS.pass) return void form.fail('form', { key: 'errors.registerFailed' });
    // The link is spent: a reload must not offer it again (a `redirect` beside it stays for the next step).
    token = '';
    const url = new URL(location.href);
    url.searchParams.delete(LINK_PARAM[kind]);
    history.replaceState(null, '', url.pathname + url.search);
    $linkSignIn.setKey('phase', 'redirecting');
    const outcome = await (await afterSignIn()).continueAfterSignIn(result.data);
    if (outcome === 'cancelled') return void $linkSignIn.setKey('phase', kind === 'pass' ? 'request' : 'no-link');
    if (outcome) {
      $linkSignIn.setKey('phase', 'confirm');
      form.fail('form', problemOf(outcome));
    }
  });
}
