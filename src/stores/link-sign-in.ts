import { map } from 'nanostores';
import { loginLinkApi } from '../api/login-links';
import type { Messages } from '../i18n';
import { emailSchema, stripSpacesAndCommas, TRACELESS } from '../schemas/auth';
import { LINK_PARAM, linkTokenSchema } from '../schemas/login-links';
import { continueAfterSignIn, failureMessage } from './after-sign-in';

export type LinkSignInMessages = Pick<Messages, 'linkSignIn' | 'signIn' | 'validation' | 'errors'>;
export type LinkKind = 'pass' | 'share';

/**
 * /pass_email_login and /share_login (issue 6). With a token in the URL the page offers one "Sign in"
 * button: the link is used on that click, never on page load, so a mail scanner that opens it does not use
 * it up. Without a token, /pass_email_login asks for an address and sends a link.
 */
export const $linkSignIn = map({
  phase: 'request' as 'request' | 'sent' | 'confirm' | 'no-link' | 'redirecting',
  email: '',
  sentTo: '',
  busy: false,
  emailError: '',
  formError: '',
});

let t: LinkSignInMessages;
let kind: LinkKind;
let token = '';

export function initLinkSignIn(messages: LinkSignInMessages, linkKind: LinkKind) {
  t = messages;
  kind = linkKind;
  const fromUrl = new URLSearchParams(location.search).get(LINK_PARAM[linkKind]) ?? '';
  token = linkTokenSchema.safeParse(fromUrl).success ? fromUrl : '';
  if (fromUrl && !token) $linkSignIn.setKey('formError', messages.errors.linkInvalid);
  $linkSignIn.setKey('phase', token ? 'confirm' : linkKind === 'pass' ? 'request' : 'no-link');
}

export function setEmail(value: string) {
  $linkSignIn.set({ ...$linkSignIn.get(), email: value, emailError: '', formError: '' });
}

/** Back to the address form, e.g. after a used or expired link. */
export function askAgain() {
  $linkSignIn.set({ ...$linkSignIn.get(), phase: 'request', formError: '', sentTo: '' });
}

export async function sendLink() {
  const s = $linkSignIn.get();
  if (s.busy) return;
  if (!stripSpacesAndCommas(s.email)) return void $linkSignIn.setKey('emailError', t.validation.emailRequired);
  const email = emailSchema.safeParse(s.email);
  if (!email.success) return void $linkSignIn.setKey('emailError', t.validation.emailInvalid);
  $linkSignIn.setKey('busy', true);
  try {
    const result = await loginLinkApi.sendPassEmail({ loginEmail: email.data });
    if (!result.ok) return void $linkSignIn.setKey(result.code.startsWith('PH') ? 'emailError' : 'formError', failureMessage(result, t.errors));
    $linkSignIn.set({ ...$linkSignIn.get(), phase: 'sent', sentTo: email.data });
  } finally {
    $linkSignIn.setKey('busy', false);
  }
}

/** Uses the link (one click, however often it is pressed) and goes on as any sign-in does. */
export const hasLink = () => token !== '';

export async function signInWithLink() {
  if ($linkSignIn.get().busy || !token) return;
  $linkSignIn.set({ ...$linkSignIn.get(), busy: true, formError: '' });
  try {
    const result = kind === 'pass' ? await loginLinkApi.passEmailLogin(token) : await loginLinkApi.shareLogin(token);
    if (!result.ok) return void $linkSignIn.setKey('formError', failureMessage(result, t.errors));
    if (result.data.tracelessCheckResult !== TRACELESS.pass) return void $linkSignIn.setKey('formError', t.errors.registerFailed);
    // The link is spent: a reload must not offer it again (a `redirect` beside it stays for the next step).
    token = '';
    const url = new URL(location.href);
    url.searchParams.delete(LINK_PARAM[kind]);
    history.replaceState(null, '', url.pathname + url.search);
    $linkSignIn.setKey('phase', 'redirecting');
    const outcome = await continueAfterSignIn(result.data);
    if (outcome === 'cancelled') return void $linkSignIn.setKey('phase', kind === 'pass' ? 'request' : 'no-link');
    if (outcome) $linkSignIn.set({ ...$linkSignIn.get(), phase: 'confirm', formError: failureMessage(outcome, t.errors) });
  } finally {
    $linkSignIn.setKey('busy', false);
  }
}
