/**
 * "Remember me" keeps the sign-in way and the identifier only, never the password (security baseline):
 * the browser's password manager keeps passwords through the autocomplete attributes.
 */
export type RememberedSignIn =
  | { loginWay: 'phone'; callingCode: string; areaId: string; mobile: string }
  | { loginWay: 'email'; email: string };

const KEY = 'rememberedSignIn';

export function readRemembered(): RememberedSignIn | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as RememberedSignIn | null;
    return value && (value.loginWay === 'phone' || value.loginWay === 'email') ? value : null;
  } catch {
    return null;
  }
}

export function remember(value: RememberedSignIn | null) {
  if (value) localStorage.setItem(KEY, JSON.stringify(value));
  else localStorage.removeItem(KEY);
}
