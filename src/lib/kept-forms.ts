/**
 * What was typed on a page when its session ended: the page's forms register what they would keep, it is
 * saved when the api client says the session ended (just before it sends the person to sign in), and the same page (sign-in returns there)
 * puts it back once. sessionStorage: this tab only, gone with the tab. Never passwords or codes: a form
 * names the values it keeps. A value older than KEEP_MS is dropped, so a later visitor of a shared
 * computer does not get it.
 */

const PREFIX = 'keptForm:';
export const KEEP_MS = 30 * 60 * 1000;

type Values = Record<string, unknown>;
const keepers = new Map<string, () => Values | null>();

/** The api client's signal that the session ended (src/api/client.ts SESSION_ENDED_EVENT; not imported, see there). */
const SESSION_ENDED_EVENT = 'portal:session-ended';

/** A form of this page: `read` gives the values it keeps (null while it shows nothing worth keeping). */
export function keepOnSessionEnd(name: string, read: () => Values | null) {
  if (!keepers.size && typeof addEventListener === 'function') addEventListener(SESSION_ENDED_EVENT, () => saveKeptForms());
  keepers.set(name, read);
}

/** Saves every registered form of this page (called as the session is found ended). */
export function saveKeptForms(now = Date.now()) {
  const forms: Record<string, Values> = {};
  for (const [name, read] of keepers) {
    const values = read();
    if (values) forms[name] = values;
  }
  if (!Object.keys(forms).length) return;
  try {
    sessionStorage.setItem(PREFIX + location.pathname, JSON.stringify({ at: now, forms }));
  } catch {
    // Storage full or blocked: nothing kept, as before.
  }
}

/** The values one form of this page kept, once; null when there are none (or they are too old). */
export function takeKeptForm(name: string, now = Date.now()): Values | null {
  try {
    const key = PREFIX + location.pathname;
    const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { at?: unknown; forms?: Record<string, Values> } | null;
    const values = saved?.forms?.[name];
    if (!saved?.forms || !values) return null;
    delete saved.forms[name];
    if (Object.keys(saved.forms).length) sessionStorage.setItem(key, JSON.stringify(saved));
    else sessionStorage.removeItem(key);
    return typeof saved.at === 'number' && now - saved.at < KEEP_MS ? values : null;
  } catch {
    return null;
  }
}

/** Sign-out: nothing typed on this tab outlives the session. */
export function dropKeptForms() {
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const key = sessionStorage.key(i);
      if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    // Nothing to drop.
  }
}
