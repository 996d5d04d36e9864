/**
 * An invitation code's shape, without zod: the join form reads it at first paint (issue 31) and loads the code's
 * schema (onboarding.ts, which re-exports these) only with its checks.
 */

/** 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L). Input is trimmed and upper-cased. */
export const INVITATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITATION_LENGTH = 8;
