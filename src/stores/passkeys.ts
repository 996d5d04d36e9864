import { map } from 'nanostores';
import { passkeyApi } from '../api/passkeys';
import { stepUpApi } from '../api/step-up';
import type { Problem } from '../i18n/problem';
import { canUsePasskeys } from '../lib/webauthn-support';
import type { Passkey } from '../schemas/passkeys';
import { ask } from './dialog';
import { STEP_UP_CANCELLED, withFreshProof } from './step-up-state';

/**
 * The person's passkeys in the user center: list, add (a name first, then the device's own dialog), rename,
 * remove (after a confirmation). @simplewebauthn/browser loads with the first "Add". Adding and removing need a
 * fresh proof of the person: without one the "Confirm it's you" dialog asks for it (stores/step-up.ts).
 */
export const $passkeys = map({
  phase: 'loading' as 'loading' | 'ready' | 'unsupported' | 'failed',
  items: [] as Passkey[],
  /** After a password reset by code: since when the person is asked to review their passkeys; null: not asked. */
  reviewSince: null as number | null,
  /** A call or the device's dialog is running. */
  busy: false,
  notice: null as Problem | null,
  error: null as Problem | null,
});

/** A refusal; a cancelled "Confirm it's you" is none (null: nothing to say). */
const failed = (result: { code: string; message: string }): Problem | null => (result.code === STEP_UP_CANCELLED ? null : { code: result.code, message: result.message });

function settle(change: Partial<ReturnType<typeof $passkeys.get>>) {
  $passkeys.set({ ...$passkeys.get(), busy: false, ...change });
}

/** Starts a step: busy, and the last step's words gone. False when another step is running. */
function begin(): boolean {
  if ($passkeys.get().busy) return false;
  $passkeys.set({ ...$passkeys.get(), busy: true, notice: null, error: null });
  return true;
}

export async function loadPasskeys() {
  if (!canUsePasskeys()) return settle({ phase: 'unsupported' });
  const [result, review] = await Promise.all([passkeyApi.list(), stepUpApi.passkeyReview()]);
  const reviewSince = review.ok ? review.data.since : null;
  settle(result.ok ? { phase: 'ready', items: result.data, reviewSince } : { phase: 'failed', error: failed(result) });
}

/** The person says the passkeys listed after a password reset are all theirs. */
export async function endPasskeyReview() {
  if (!begin()) return;
  const result = await withFreshProof(stepUpApi.passkeyReviewDone);
  if (!result.ok && result.code === STEP_UP_CANCELLED) return settle({});
  settle(result.ok ? { reviewSince: null } : { error: failed(result) });
}

/** Why the device's dialog ended without a passkey, in the person's words. */
function refusal(error: unknown): Problem {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return { key: 'passkeys.exists' };
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return { key: 'passkeys.cancelledAdd' };
  return { key: 'passkeys.failed' };
}

/**
 * Add: asks a name (starting from `names.suggested`, the browser and system), then the device makes the passkey.
 * A name left as suggested becomes `names.external` when the passkey lives on another device (a security key or
 * a phone), not on this one.
 */
export async function addPasskey(names: { suggested: string; external: string }) {
  if ($passkeys.get().busy) return;
  const name = await ask({ kind: 'passkeyName', purpose: 'add', value: names.suggested });
  if (name === null || !begin()) return;
  const options = await withFreshProof(passkeyApi.registrationOptions);
  if (!options.ok) return settle({ error: failed(options) });
  let response;
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    response = await startRegistration({ optionsJSON: options.data.options as never });
  } catch (error) {
    return settle({ error: refusal(error) });
  }
  const given = name === names.suggested && response.authenticatorAttachment === 'cross-platform' ? names.external : name;
  const result = await withFreshProof(() => passkeyApi.register({ name: given, response: response as never }));
  if (!result.ok) return settle({ error: failed(result) });
  settle({ items: [result.data, ...$passkeys.get().items], notice: { key: 'passkeys.added', values: { name: result.data.name } } });
}

export async function renamePasskey(passkey: Passkey) {
  if ($passkeys.get().busy) return;
  const name = await ask({ kind: 'passkeyName', purpose: 'rename', value: passkey.name });
  if (name === null || name === passkey.name || !begin()) return;
  const result = await passkeyApi.rename(passkey.id, name);
  if (!result.ok) return settle({ error: failed(result) });
  settle({ items: $passkeys.get().items.map((item) => (item.id === passkey.id ? result.data : item)), notice: { key: 'passkeys.renamed' } });
}

/** Remove, after the person confirms; true when it is gone. */
export async function removePasskey(passkey: Passkey): Promise<boolean> {
  if ($passkeys.get().busy) return false;
  if (!(await ask({ kind: 'confirm', subject: 'removePasskey', name: passkey.name })) || !begin()) return false;
  const result = await withFreshProof(() => passkeyApi.remove(passkey.id));
  if (!result.ok) {
    settle({ error: failed(result) });
    return false;
  }
  settle({ items: $passkeys.get().items.filter((item) => item.id !== passkey.id), notice: { key: 'passkeys.removed', values: { name: passkey.name } } });
  return true;
}
