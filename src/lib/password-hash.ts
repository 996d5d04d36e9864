/**
 * The passwordVersion protocol: the browser sends SHA-256 hex of the password (version 2) or of
 * the password followed by the account's salt (version 1, after SY9990). The server runs its own KDF over it.
 */
export async function hashPassword(password: string, salt = ''): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password + salt));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * SHA-1 hex of a password, sent beside a new password and a sign-in for the offline breached-password check only
 * (issue 44: the Pwned Passwords ranges the gateway holds are SHA-1; it cannot derive SHA-1 from the SHA-256 above).
 */
export async function sha1Hex(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(password));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Password inputs ignore Chinese characters (and other CJK ideographs and full-width punctuation). */
export function withoutChinese(value: string): string {
  return value.replace(/[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/g, '');
}
