// The secrets the identity core hands out: random tokens, of which D1 keeps only the hash.
import { sha256Hex } from './passwords';

/** 32 bytes from the CSPRNG, base64url: what a person's browser or an operator holds. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What D1 keeps of a token: its SHA-256 hex. */
export const tokenHash = (token: string) => sha256Hex(token);

/** A new secret to hand out, and the hash to store. */
export async function newSecret(): Promise<{ token: string; hash: string }> {
  const token = randomToken();
  return { token, hash: await tokenHash(token) };
}
