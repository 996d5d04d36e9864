import type { LoginHint } from '../schemas/oidc';
import { $signIn } from './sign-in';

/**
 * An app's `login_hint` fills the phone or e-mail field and picks its tab. The hint never travels in a URL (an
 * address in a URL ends up in logs): the page asks the gateway for the waiting request's hint, which answers it
 * as form fields, or null for anything that is not a phone number or an e-mail address. Plain fetch and type
 * checks, no zod: it loads with /login when the page leads to an app. The person's own typing is never overwritten.
 */
export async function prefillFromLoginHint(search: string) {
  const requestId = connectRequestOf(search);
  if (!requestId) return;
  const before = $signIn.get();
  let hint: LoginHint = null;
  try {
    const answer = await fetch(`/api/oidc/v1/hints/${requestId}`, { headers: { accept: 'application/json' } });
    const body = (await answer.json()) as { code?: unknown; data?: LoginHint };
    if (body.code === '0') hint = body.data ?? null;
  } catch {
    return; // No hint: the form stays as it was.
  }
  if (!hint || $signIn.get() !== before) return;
  const mode = before.mode === 'chain' ? 'code' : before.mode;
  if (hint.channel === 'phone' && [hint.areaId, hint.callingCode, hint.mobile].every((value) => typeof value === 'string')) {
    $signIn.set({ ...before, mode, channel: 'phone', areaId: hint.areaId, callingCode: hint.callingCode, mobile: hint.mobile });
  } else if (hint.channel === 'email' && typeof hint.email === 'string') {
    $signIn.set({ ...before, mode, channel: 'email', email: hint.email });
  }
}

/** The OpenID authorization request this sign-in is for: /login?next=/connect?request=ID (the edge sends it here). */
function connectRequestOf(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  const match = next ? /^\/connect\?request=([A-Za-z0-9_-]{20,64})$/.exec(next) : null;
  return match?.[1] ?? null;
}
