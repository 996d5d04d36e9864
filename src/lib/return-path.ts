import type { AnyShell } from './routes';

/*
 * What the sign-in page reads from the start, kept apart from routes.ts: routes.ts is a dependency of the gateway
 * client and so bundles into the chunk with zod, which /login loads only once its form is used. This module
 * imports nothing at run time; astro.config.mjs gives it to the small "rules" chunk. routes.ts re-exports it.
 */

/**
 * Pages that work only with a session. A signed-out visitor is sent to sign-in at the edge, with the page as
 * the return path, so nobody fills a form whose submit can only fail.
 */
export const sessionShells: readonly AnyShell[] = [
  'account',
  'user_center',
  'create_account',
  'fill_account',
  'change_password',
  'enterprise_adm_and_staff',
  'completion_of_application',
  'join',
  'connect',
];

/** sessionStorage: this tab's mark that its session just ended (not signed out by the person here), for sign-in to say so. */
export const SESSION_ENDED_MARK = 'sessionEnded';

/** The sign-in page's parameter naming the page to return to. */
export const RETURN_PARAM = 'next';

/**
 * The page to return to after sign-in, or undefined: only a session page of this portal, with its query,
 * rebuilt from the shell name and re-encoded parameters, so no value can name another site.
 */
export function returnPath(raw: string | null | undefined): string | undefined {
  if (!raw || raw.length > 1024) return undefined;
  const match = /^\/([a-z_]+)(\?[^#]*)?$/.exec(raw);
  // Every session page is a page shell, so membership here is also the path → shell lookup.
  const shell = match?.[1] as AnyShell | undefined;
  if (!match || !shell || !sessionShells.includes(shell)) return undefined;
  const query = new URLSearchParams(match[2] ?? '');
  query.delete(RETURN_PARAM);
  const search = query.toString();
  return `/${shell}${search ? `?${search}` : ''}`;
}
