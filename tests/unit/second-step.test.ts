import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $passkeyOffer, $secondStep, $secondStepErrors, offerPasskey, setCode, startSecondStep, verify, verifyWithPasskey } from '../../src/stores/second-step';

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

describe('the new-device challenge on the same screen (issue 44)', () => {
  const VERIFY = 'agg-web/user/twoStep/verify';

  it("sends the account's code as kind 'code' and shows a wrong one (ND0001) under the field", async () => {
    startSecondStep(true);
    expect($secondStep.get().kind).toBe('code');
    setCode('12345');
    answers[VERIFY] = { code: 'ND0001', message: 'wrong', data: { triesLeft: 4 } };
    const passed = vi.fn(async () => {});
    await verify(passed);
    expect(passed).not.toHaveBeenCalled();
    expect($secondStepErrors.get().code).toMatchObject({ code: 'ND0001' });
    expect(calls).toEqual([VERIFY]);
  });

  it('refuses letters before calling, and a two-step screen starts on the app code', async () => {
    startSecondStep(true);
    setCode('12ab56');
    await verify(vi.fn(async () => {}));
    expect(calls).toEqual([]);
    expect($secondStepErrors.get().code).toMatchObject({ key: 'twoStep.newDeviceCodeInvalid' });
    startSecondStep(false);
    expect($secondStep.get().kind).toBe('totp');
  });
});
