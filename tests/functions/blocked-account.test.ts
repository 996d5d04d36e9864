import { describe, expect, it } from 'vitest';
import { useWorkerEnv } from './gateway-client';

/**
 * A blocked person is told how to reach support (configuration), and a code sign-in of a blocked account is
 * refused before a code is sent with exactly the answer an unknown account gets (issue 33, item 10).
 */
const SUPPORT = { SUPPORT_PHONE: '+86 400 100 2000', SUPPORT_EMAIL: 'help@example-shipping.com', SUPPORT_HOURS: 'zh=工作日 9:00–18:00,en=Weekdays 9:00–18:00' };
const { worker, api } = useWorkerEnv('blocked-account', SUPPORT);

/** Everything an answer says, with the trace id (the one part that differs per call) taken out. */
async function answerWithoutTrace(res: Response) {
  const { status, headers, text } = await api.readAll(res);
  const strip = (value: string) => value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\btrace[^\n,"]*/gi, 'TRACE');
  return { status, headers: strip(headers), text: strip(text) };
}

const block = (userId: string) => worker.env.DB.prepare('UPDATE users SET blocked_at = ? WHERE id = ?').bind(Date.now(), userId).run();

describe('a blocked account', () => {
  it('gets an e-mail sign-in code answer byte for byte like an unknown address, and no code is sent', async () => {
    const blocked = `blocked.${api.unique()}@example.com`;
    await block(await api.seed({ email: blocked, password: 'Harbour2024' }));
    const unknown = `nobody.${api.unique()}@example.com`;
    for (const lang of ['en', 'zh'] as const) {
      const from = api.ip();
      const [a, b] = await Promise.all([
        api.post('/agg-web/user/getRegVerificationCode', { emailAddress: blocked, type: 1 }, { lang, from }),
        api.post('/agg-web/user/getRegVerificationCode', { emailAddress: unknown, type: 1 }, { lang, from }),
      ]);
      const [blockedAnswer, unknownAnswer] = await Promise.all([answerWithoutTrace(a), answerWithoutTrace(b)]);
      expect(blockedAnswer).toEqual(unknownAnswer);
      expect(JSON.parse(blockedAnswer.text).code).toBe('0');
      // Asked again at once: both meet the same resend wait (the blocked one's code is a decoy under the same rules).
      const [again, againUnknown] = await Promise.all([
        api.post('/agg-web/user/getRegVerificationCode', { emailAddress: blocked, type: 1 }, { lang, from }),
        api.post('/agg-web/user/getRegVerificationCode', { emailAddress: unknown, type: 1 }, { lang, from }),
      ]);
      const [waitBlocked, waitUnknown] = await Promise.all([answerWithoutTrace(again), answerWithoutTrace(againUnknown)]);
      // The wait counts from each code's own moment (the two were sent in the same breath): seconds may differ by one.
      const seconds = (text: string) => Number(/"retryAfter":(\d+)/.exec(text)?.[1]);
      expect(Math.abs(seconds(waitBlocked.text) - seconds(waitUnknown.text))).toBeLessThanOrEqual(1);
      const sameSecond = (text: string) => text.replace(/"retryAfter":\d+/, '"retryAfter":N');
      expect({ ...waitBlocked, text: sameSecond(waitBlocked.text) }).toEqual({ ...waitUnknown, text: sameSecond(waitUnknown.text) });
      expect(JSON.parse(waitBlocked.text).code).toBe('CD0001');
      await worker.env.DB.prepare('DELETE FROM codes WHERE recipient IN (?, ?)').bind(blocked, unknown).run();
    }
    // The unknown address got its (registration) code; the blocked one never got anything.
    expect(await api.outbox(unknown)).not.toHaveLength(0);
    expect(await api.outbox(blocked)).toHaveLength(0);
  });

  it('gets an SMS code answer byte for byte like an unknown number (after the slider), and no text is sent', async () => {
    const blockedMobile = api.mobile('137');
    await block(await api.seed({ phone: { callingCode: '+86', mobile: blockedMobile }, password: 'Harbour2024' }));
    const unknownMobile = api.mobile('136');
    const send = async (mobile: string) => {
      const sliderCheck = await api.sliderCheck('sms', `+86${mobile}`);
      return api.post('/agg-web/sms/send', { phoneCode: 'CN', mobile, phoneCodeValue: '+86', type: 1, sliderCheck }, { lang: 'zh' });
    };
    const blockedAnswer = await answerWithoutTrace(await send(blockedMobile));
    const unknownAnswer = await answerWithoutTrace(await send(unknownMobile));
    expect(blockedAnswer).toEqual(unknownAnswer);
    expect(JSON.parse(blockedAnswer.text).code).toBe('0');
    expect(await api.outbox(`+86${blockedMobile}`)).toHaveLength(0);
    expect(await api.outbox(`+86${unknownMobile}`)).not.toHaveLength(0);
  });

  it('is told the support contact of the configuration, in its language', async () => {
    const email = `blocked.${api.unique()}@example.com`;
    await block(await api.seed({ email, password: 'Harbour2024' }));
    const en = await api.json<{ support: { phone: string; email: string; hours: string } }>(await api.emailLogin(email, 'Harbour2024', {}, { lang: 'en' }));
    expect(en.code).toBe('PS0100');
    expect(en.message).toContain('+86 400 100 2000');
    expect(en.message).toContain('help@example-shipping.com');
    expect(en.message).toContain('Weekdays 9:00–18:00');
    expect(en.data.support).toEqual({ phone: '+86 400 100 2000', email: 'help@example-shipping.com', hours: 'Weekdays 9:00–18:00' });
    const zh = await api.json(await api.emailLogin(email, 'Harbour2024', {}, { lang: 'zh' }));
    expect(zh.message).toMatch(/^该账号已被停用，请联系客服。客服：电话 \+86 400 100 2000，邮箱 help@example-shipping.com，工作日 9:00–18:00。$/);
  });
});
