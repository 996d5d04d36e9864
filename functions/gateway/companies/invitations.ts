import { INVITATION_ALPHABET, INVITATION_LENGTH, invitationCodeSchema } from '../../../src/schemas/onboarding';

/**
 * Invitation codes: 8 characters from a 31-letter alphabet without look-alikes (≈ 39 bits), drawn from the
 * CSPRNG without modulo bias. Uniqueness is the UNIQUE column companies.invitation_code; callers retry on a clash.
 */
export function newInvitationCode(): string {
  const out: string[] = [];
  const limit = 256 - (256 % INVITATION_ALPHABET.length); // bytes at or above this would bias the draw
  while (out.length < INVITATION_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < limit && out.length < INVITATION_LENGTH) out.push(INVITATION_ALPHABET[byte % INVITATION_ALPHABET.length]!);
    }
  }
  return out.join('');
}

/** The stored form of what a person typed ('abcd-efgh ' → 'ABCDEFGH'), or null when it cannot be a code. */
export function normaliseInvitationCode(input: string): string | null {
  const parsed = invitationCodeSchema.safeParse(input);
  return parsed.success ? parsed.data : null;
}
