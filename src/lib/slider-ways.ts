/** A way into the account that needs no human check, offered when the gateway refuses the slider. */
export type SliderWay = 'emailCode' | 'password' | 'passkey';

/**
 * The ways a refused slider offers (issue 47): only those that apply. Someone registering (the page is /register,
 * or the new-user questions were just answered) has no password and no passkey yet: the e-mail code, which also
 * registers, is their way. A password sign-in's own slider does not offer the password again.
 */
export function sliderWays({ register, registering, scene, passkeys }: { register: boolean; registering: boolean; scene: 'sms' | 'login'; passkeys: boolean }): SliderWay[] {
  if (register || registering) return ['emailCode'];
  return ['emailCode', ...(scene === 'login' ? [] : (['password'] as const)), ...(passkeys ? (['passkey'] as const) : [])];
}
