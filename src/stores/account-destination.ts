import { destinations } from '../lib/login-route';

/**
 * Where to go after choosing: a `redirect` query that is a plain path on this site goes there; any other
 * target goes through /login, where the edge re-checks it against its allow-list (a signed-in visitor of a
 * sign-in page is sent to the redirect, or to the portal when it is not allowed). Else the web app.
 */
export function destinationAfterChoice(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  if (!redirect) return destinations.webApp;
  if (/^\/(?![/\\])/.test(redirect) && !/[\s\\]/.test(redirect)) return redirect;
  if (/^https?:\/\//i.test(redirect)) return `/login?${new URLSearchParams({ redirect })}`;
  return destinations.webApp;
}
