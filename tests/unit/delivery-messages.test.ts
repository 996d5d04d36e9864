import { describe, expect, it } from 'vitest';
import { EMAIL_PROVIDERS, parseConfig, SMS_PROVIDERS } from '../../functions/config';
import { decisionMessage } from '../../functions/gateway/review/service';
import { codeMessage, type DeliveryMessage, type MessageKind } from '../../functions/gateway/delivery';
import { MESSAGE_KINDS, smsFormOf, smsTemplate } from '../../functions/gateway/delivery/message';
import { registryChangeMessage } from '../../functions/gateway/registry/service';
import { webhookStoppedMessage } from '../../functions/gateway/webhooks/delivery';
import { passLinkMessage } from '../../functions/gateway/login-links/service';
import { grantChangeMessage } from '../../functions/gateway/grants/service';
import { newDeviceMessage } from '../../functions/gateway/sign-in/history';
import { securityChangeMessage } from '../../functions/gateway/delivery/security-notice';
import { langs, type Lang } from '../../src/lib/lang';
import { noticeDay, noticeTime } from '../../src/lib/notice-time';

/**
 * Every kind of message the gateway sends reaches a person on every channel it goes by, through every provider
 * of that channel, in both languages: a text for the providers that carry one (SES, Twilio, the webhook) and
 * a template with all its variables for the template SMS (Aliyun, Tencent). A new kind without its words in
 * one language, or an SMS kind without a template setting, fails here rather than at an administrator's phone.
 */

/** One message of each kind, built by the code that sends it (a kind missing here is a type error). */
const BUILT: Record<MessageKind, (lang: Lang) => Omit<DeliveryMessage, 'channel' | 'to'>> = {
  code: (lang) => codeMessage(lang, '123456', 5),
  newDevice: (lang) => newDeviceMessage(lang, { when: '2026-11-24 08:00', device: 'Safari, iOS', country: 'SG', link: 'https://portal.example.com/user_center#security' }),
  reviewDecision: (lang) => decisionMessage(lang, { name: 'Harbour Lines', status: 'additionalInformationRequired', reason: 'Page 2', link: 'https://portal.example.com/account' }),
  signInLink: (lang) => passLinkMessage(lang, 'https://portal.example.com/pass_email_login?pass=abc', 15),
  grantChange: (lang) => grantChangeMessage(lang, { company: 'Harbour Lines', change: 'requested', link: 'https://portal.example.com/user_center' }),
  registryChange: (lang) => registryChangeMessage(lang, { name: 'Harbour Lines', status: 'revoked', link: 'https://portal.example.com/account' }),
  webhookStopped: (lang) => webhookStoppedMessage(lang, { company: 'Harbour Lines', url: 'https://hooks.harbour.example/events', reason: 'failing', link: 'https://portal.example.com/user_center' }),
  securityChange: (lang) => securityChangeMessage(lang, { when: '2026-11-24 08:00', change: 'passkeyAdded', link: 'https://portal.example.com/user_center#security' }),
};

const PROVIDERS = { sms: SMS_PROVIDERS, email: EMAIL_PROVIDERS };
const TEMPLATE_SMS: readonly string[] = ['aliyun', 'tencent'];
const HAN = /[\u4e00-\u9fff]/;

/** A deployment that fills every template setting the kinds name, one id per language. */
const kinds = Object.keys(MESSAGE_KINDS) as MessageKind[];
const settings = kinds.flatMap((kind) => smsFormOf(kind)?.setting ?? []);
const config = parseConfig({ SMS_SIGN_NAMES: 'zh=船运平台,en=ShipPortal', ...Object.fromEntries(settings.map((name) => [name, `zh=${name}_zh,en=${name}_en`])) });

const cases = kinds.flatMap((kind) =>
  MESSAGE_KINDS[kind].channels.flatMap((channel) =>
    langs.flatMap((lang) => PROVIDERS[channel].filter((provider) => provider !== 'outbox').map((provider) => ({ kind, channel, lang, provider }))),
  ),
);

describe('every message kind, channel, provider and language', () => {
  it.each(cases)('$kind by $channel through $provider in $lang', ({ kind, channel, lang, provider }) => {
    const message: DeliveryMessage = { ...BUILT[kind](lang), channel, to: channel === 'sms' ? '+8613800138000' : 'a@example.com' };
    expect(message).toMatchObject({ kind, lang });
    if (channel === 'sms' && TEMPLATE_SMS.includes(provider)) {
      const form = smsFormOf(kind)!;
      const template = smsTemplate({ config, message, now: 0 });
      expect(template.templateId).toBe(`${form.setting}_${lang}`);
      expect(template.signName).toBe(lang === 'zh' ? '船运平台' : 'ShipPortal');
      // Every variable of the template, in template order, with a value.
      expect(Object.keys(template.params)).toEqual(form.variables);
      for (const value of Object.values(template.params)) expect(value).toMatch(/\S/);
    } else {
      expect(message.subject).toMatch(/\S/);
      if (lang === 'zh') expect(message.text).toMatch(HAN);
      else expect(message.text).not.toMatch(HAN);
    }
  });

  it('the review decision SMS names the company and its status in the language of the form', () => {
    expect(smsTemplate({ config, message: { ...BUILT.reviewDecision('zh'), channel: 'sms', to: '+8613800138000' }, now: 0 }).params).toEqual({
      company: 'Harbour Lines',
      status: '需补充资料',
    });
    expect(smsTemplate({ config, message: { ...BUILT.reviewDecision('en'), channel: 'sms', to: '+447400123456' }, now: 0 }).params).toEqual({
      company: 'Harbour Lines',
      status: 'additional information required',
    });
  });

  it('writes a moment with its zone named: Beijing time in Chinese, UTC in English (issue 47)', () => {
    const at = Date.UTC(2026, 10, 30, 17, 5);
    expect(noticeTime(at, 'zh')).toBe('2026年12月1日 01:05（北京时间）');
    expect(noticeTime(at, 'en')).toBe('30 November 2026, 17:05 UTC');
    expect(noticeDay(at, 'zh')).toBe('2026年12月1日');
    expect(noticeDay(at, 'en')).toBe('30 November 2026');
  });

  it('tells a changed e-mail in one sentence with its time, not a template joined twice (issue 47)', () => {
    const en = securityChangeMessage('en', { when: noticeTime(Date.UTC(2026, 10, 30, 17, 5), 'en'), change: 'emailChanged', link: null });
    expect(en.text.split('\n')[0]).toBe('On 30 November 2026, 17:05 UTC, the e-mail address of your account was changed; this address no longer belongs to it.');
    const zh = securityChangeMessage('zh', { when: noticeTime(Date.UTC(2026, 10, 30, 17, 5), 'zh'), change: 'emailChanged', link: null });
    expect(zh.text.split('\n')[0]).toBe('您的账号于 2026年12月1日 01:05（北京时间）更换了登录邮箱，本邮箱已不再属于该账号。');
    const device = newDeviceMessage('en', { when: noticeTime(Date.UTC(2026, 10, 30, 17, 5), 'en'), device: 'Safari on iOS', country: null, link: null });
    expect(device.text).toContain('from a new device on 30 November 2026, 17:05 UTC: Safari on iOS.');
    expect(device.text).not.toContain('(UTC)');
  });
});
