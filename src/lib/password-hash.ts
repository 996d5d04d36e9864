/**
 * The passwordVersion protocol: the browser sends SHA-256 hex of the password (version 2) or of
 * the password followed by the account's salt (version 1, after SY9990). The server runs its own KDF over it.
 */
export async function hashPassword(password: string, salt = ''): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password + salt));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Password inputs ignore Chinese characters (and other CJK ideographs and full-width punctuation). */
export function withoutChinese(value: string): string {
  return value.replace(/[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/g, '');
}
