/** WebAuthn is there at all: checked without loading any passkey code, to show or hide passkey controls. */
export const canUsePasskeys = () => typeof (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential === 'function';
