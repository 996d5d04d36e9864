/**
 * What a finished password reset hands to the sign-in page of the same tab: the way and identifier it used,
 * so that the sign-in page opens the password tab on that channel, filled in, under the confirmation. Never
 * the password. Read once: a later visit of the sign-in page shows nothing.
 */
export type ResetIdentifier = { channel: 'phone'; areaId: string; callingCode: string; mobile: string } | { channel: 'email'; email: string };

const KEY = 'passwordResetDone';

export function handOverReset(identifier: ResetIdentifier) {
  sessionStorage.setItem(KEY, JSON.stringify(identifier));
}

export function takeResetHandOver(): ResetIdentifier | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const value = JSON.parse(raw ?? 'null') as Partial<Record<string, unknown>> | null;
    if (value?.channel === 'email' && typeof value.email === 'string') return { channel: 'email', email: value.email };
    if (value?.channel === 'phone' && typeof value.mobile === 'string' && typeof value.areaId === 'string' && typeof value.callingCode === 'string') {
      return { channel: 'phone', areaId: value.areaId, callingCode: value.callingCode, mobile: value.mobile };
    }
  } catch {
    // Storage unavailable or a damaged value: nothing handed over.
  }
  return null;
}
