/**
 * Every route of the portal (portal-spec.md §2) and the pre-rendered shell that answers it.
 * The Worker serves `/{lang}/{shell}.html` at the exact path; anything else gets the 404 shell.
 */
export const pageShells = [
  'login',
  'navigator_login',
  'register',
  'join',
  'forget',
  'navigator_forget',
  'account',
  'user_center',
  'create_account',
  'fill_account',
  'change_password',
  'enterprise_adm_and_staff',
  'completion_of_application',
  'pass_email_login',
  'share_login',
] as const;

export type PageShell = (typeof pageShells)[number];
export const notFoundShell = 'not_found' as const;

/** Path → shell. `/` is the login page, or the partner login on a navigator host (decided by the edge). */
export function shellForPath(pathname: string): PageShell | undefined {
  if (pathname === '/') return 'login';
  const name = pathname.slice(1);
  return (pageShells as readonly string[]).includes(name) ? (name as PageShell) : undefined;
}

/** Sign-in pages: a visitor who already has a session is sent on from these, as there is nothing to sign in to. */
export const signInShells: readonly PageShell[] = [
  'login',
  'navigator_login',
  'register',
  'forget',
  'navigator_forget',
];

/**
 * Header chrome per page. The account and user-center pages carry their own sign-out, so the header's
 * logout icon is hidden there; the pass and share links sign a person in and fix the language in the link,
 * so they show none of the chrome.
 */
export function headerChrome(shell: PageShell | typeof notFoundShell) {
  const signingInByLink = shell === 'pass_email_login' || shell === 'share_login';
  return {
    showLanguageToggle: !signingInByLink,
    showLogout: !signingInByLink && shell !== 'account' && shell !== 'user_center',
    showBrowserNotice: !signingInByLink,
  };
}

// Legal pages: content/legal/{zh,en}/*.md, pre-rendered as `/{lang}/legal/{doc}.html`.
import { legalDocs, legalPaths, type LegalDoc } from './legal';
export { legalDocs, legalPaths, type LegalDoc };
export type LegalShell = `legal/${LegalDoc}`;

/** Path → legal document: `/terms`, `/privacy`, `/disclaimer`, `/registration_agreement`; exact, like every route. */
export function legalDocForPath(pathname: string): LegalDoc | undefined {
  return legalDocs.find((doc) => legalPaths[doc] === pathname);
}

/** The shell file of a legal page (`legal/terms`), served like any other shell. */
export function legalShell(doc: LegalDoc): LegalShell {
  return `legal/${doc}`;
}
