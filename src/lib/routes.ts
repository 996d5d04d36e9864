import { RETURN_PARAM, returnPath, SESSION_ENDED_MARK, sessionShells } from './return-path';

export { RETURN_PARAM, returnPath, SESSION_ENDED_MARK, sessionShells };

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
  // The partners' landing page: the default PARTNER_APP_URL, where a partner with no company goes (issue 33).
  'partner',
  // Where WeChat and WeCom return after a scan (functions/gateway/wechat/).
  'wechat_callback',
  // Where a company's own OpenID provider returns after its sign-in (functions/gateway/company-sso/, issue 43).
  'company_sso_callback',
  // Signing in to another app (OpenID Connect): consent and "confirm it's you" (functions/gateway/oidc/).
  'connect',
  // An app asks to sign the person out (RP-initiated logout without a hint of this session): confirm first.
  'sign_out',
  // "This wasn't me": the link in the notice at the old address of an e-mail change (data-rights undoEmailChange).
  'undo_change',
] as const;

/** The operators' area, apart from the platform's pages (built as /{lang}/ops.html and /{lang}/ops/{page}.html). */
export const opsShells = [
  'ops',
  'ops/login',
  'ops/enrol',
  'ops/operators',
  // Reviewers: the company review queue and one company's review page (?companyId=).
  'ops/companies',
  'ops/company',
  // Support: people; every operator: the audit trail.
  'ops/people',
  // Support: viewing as a person with their consent (issue 44).
  'ops/support',
  'ops/audit',
  // Admins: the OpenID Connect clients (issue 27).
  'ops/clients',
  // Every operator: the delivery providers' sends, failures, receipts and breakers (read-only).
  'ops/delivery',
  // Admins: the platform's event webhook endpoints (issue 45).
  'ops/webhooks',
] as const;
export type OpsShell = (typeof opsShells)[number];

export type PageShell = (typeof pageShells)[number];
/** Any page the edge serves: a platform page or an operator page. */
export type AnyShell = PageShell | OpsShell;
export const notFoundShell = 'not_found' as const;
/** The page an OpenID authorization request that names no known client or redirect URI gets (status 400, no route). */
export const oidcErrorShell = 'oidc_error' as const;

/**
 * The operators' pages: every one needs the operator cookie (a platform session does not count), except the
 * sign-in and the enrolment link's page. They are never indexed.
 */
export const isOpsShell = (shell: string | undefined): shell is OpsShell => (opsShells as readonly (string | undefined)[]).includes(shell);
export const opsPublicShells: readonly OpsShell[] = ['ops/login', 'ops/enrol'];
export const OPS_LOGIN_PATH = '/ops/login';

/**
 * The operator page to return to after the operator sign-in, or undefined: only an operator page that needs
 * the session, rebuilt from its shell name and re-encoded parameters (the same rules as `returnPath`).
 */
export function opsReturnPath(raw: string | null | undefined): string | undefined {
  if (!raw || raw.length > 1024) return undefined;
  const match = /^\/(ops(?:\/[a-z_]+)?)(\?[^#]*)?$/.exec(raw);
  const shell = match ? shellForPath(`/${match[1]}`) : undefined;
  if (!match || !shell || !isOpsShell(shell) || opsPublicShells.includes(shell)) return undefined;
  const query = new URLSearchParams(match[2] ?? '');
  query.delete(RETURN_PARAM);
  const search = query.toString();
  return `/${shell}${search ? `?${search}` : ''}`;
}

/** Where an operator signs in from an operator page: /ops/login, returning to the page. */
export function opsSignInPathFrom(pathname: string, search: string): string {
  const back = opsReturnPath(`${pathname}${search}`);
  return back ? `${OPS_LOGIN_PATH}?${new URLSearchParams({ [RETURN_PARAM]: back })}` : OPS_LOGIN_PATH;
}

/** Path → shell. `/` is the login page, or the partner login on a navigator host (decided by the edge). */
export function shellForPath(pathname: string): AnyShell | undefined {
  if (pathname === '/') return 'login';
  const name = pathname.slice(1);
  return (pageShells as readonly string[]).includes(name) || isOpsShell(name) ? (name as AnyShell) : undefined;
}

/** Sign-in pages: a visitor who already has a session is sent on from these, as there is nothing to sign in to. */
export const signInShells: readonly AnyShell[] = [
  'login',
  'navigator_login',
  'register',
  'forget',
  'navigator_forget',
];

/** Where to sign in from a page: the sign-in page, returning to this page when it is a session page. */
export function signInPathFrom(pathname: string, search: string, signInPage = '/login'): string {
  const back = returnPath(`${pathname}${search}`);
  return back ? `${signInPage}?${new URLSearchParams({ [RETURN_PARAM]: back })}` : signInPage;
}

/**
 * Header chrome per page. The header's sign-out is on every page of a person's session, the user center
 * too (issue 47: a person looks for it in the same place everywhere); /account, the choice of company, keeps its
 * own sign-out in place of it (it is the page a session without a company lands on). The pass and share links sign a person in and fix the language in the link, so they show none of the chrome.
 */
export function headerChrome(shell: PageShell | typeof notFoundShell | typeof oidcErrorShell) {
  const signingInByLink = shell === 'pass_email_login' || shell === 'share_login';
  return {
    showLanguageToggle: !signingInByLink,
    // The header's logout ends a platform session; operator pages have none. /sign_out is that choice itself.
    showLogout: !signingInByLink && shell !== 'account' && shell !== 'sign_out' && !shell.startsWith('ops/'),
    showBrowserNotice: !signingInByLink,
  };
}
