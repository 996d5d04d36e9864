import { isLang } from './lang';
import { readCookie } from './read-cookie';
import { SESSION_MARKER_COOKIE } from './session-marker';

/** Wires the header chrome of every page: language toggle and logout icon (the browser notice is public/browser-check.js). */
export function initHeader() {
  document.querySelector<HTMLButtonElement>('[data-lang-toggle]')?.addEventListener('click', async (event) => {
    const target = (event.currentTarget as HTMLButtonElement).dataset.target;
    if (!isLang(target)) return;
    // The writer loads on this click only, out of every page's first load; the reload waits until the cookie is stored.
    const { writeLangCookie } = await import('./lang-cookie');
    await writeLangCookie(target);
    location.reload();
  });

  const logout = document.querySelector<HTMLButtonElement>('[data-logout]');
  if (logout) {
    logout.hidden = readCookie(document.cookie, SESSION_MARKER_COOKIE) === undefined;
    // Rendered hidden, shown here: a signed-out visitor never sees it flash.
    logout.addEventListener('click', async () => {
      logout.disabled = true;
      // The edge clears the HttpOnly session cookie and the marker whatever the gateway answers.
      await fetch('/api/c/user/v2/loginout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
      // Nothing typed on this tab outlives the session: kept-forms.ts's entries go (its prefix; not imported,
      // so that every page's header stays free of the forms' chunk).
      for (const key of Object.keys(sessionStorage)) if (key.startsWith('keptForm:')) sessionStorage.removeItem(key);
      location.assign('/login');
    });
  }
}
