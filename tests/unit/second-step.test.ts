import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $passkeyOffer, $secondStepErrors, offerPasskey, verifyWithPasskey } from '../../src/stores/second-step';

/**
 * The second step's passkey offer against a scripted gateway (`fetch` answers with the gateway's envelope):
 * shown only to a person the gateway has passkey options for; a ceremony that cannot start says so in words.
 */
let answers: Record<string, { code: string; message?: string; data?: unknown }>;
let calls: string[];

beforeEach(() => {
  calls = [];
  answers = {};
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  vi.stubGlobal('fetch', async (url: string) => {
    const path = new URL(url, 'http://portal.test').pathname.replace(/^\/api\//, '');
    calls.push(path);
    const answer = answers[path] ?? { code: 'SY0404', message: `no answer scripted for ${path}` };
    return Response.json({ code: answer.code, message: answer.message ?? '', data: answer.data ?? null });
  });
});
afterEach(() => vi.unstubAllGlobals());

const OPTIONS = 'agg-web/passkeys/secondStep/options';

describe('the passkey offer of the second step', () => {
  it('shows the button when the gateway has options for this person', async () => {
    answers[OPTIONS] = { code: '0', data: { options: { challenge: 'abc', allowCredentials: [{ id: 'k1', type: 'public-key' }] } } };
    await offerPasskey();
    expect($passkeyOffer.get()).toBe('offered');
  });

  it('keeps it hidden for a person without passkeys (PK0013) and asks nothing where WebAuthn is missing', async () => {
    answers[OPTIONS] = { code: 'PK0013', message: 'no passkey' };
    await offerPasskey();
    expect($passkeyOffer.get()).toBe('none');
    vi.stubGlobal('PublicKeyCredential', undefined);
    calls = [];
    await offerPasskey();
    expect(calls).toEqual([]);
    expect($passkeyOffer.get()).toBe('none');
  });

  it('shows a refusal of fresh options on the form and goes on to nothing', async () => {
    answers[OPTIONS] = { code: 'MF0001', message: 'expired' };
    const passed = vi.fn(async () => {});
    await verifyWithPasskey(passed);
    expect(passed).not.toHaveBeenCalled();
    expect($secondStepErrors.get().form).toMatchObject({ code: 'MF0001', message: 'expired' });
    expect(calls).toEqual([OPTIONS]);
  });
});
