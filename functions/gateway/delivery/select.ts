import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Config, EmailProvider, SmsProvider } from '../../config';
import { aliyunSms } from './aliyun-sms';
import { MESSAGE_KINDS, smsFormOf, type DeliveryMessage, type MessageKind, type Provider } from './message';
import { sesEmail } from './ses-email';
import { tencentSms } from './tencent-sms';
import { twilioSms } from './twilio-sms';
import { webhook } from './webhook';

/**
 * Which provider takes a message: e-mail goes to EMAIL_PROVIDER; an SMS to a mainland China number (+86) to
 * SMS_PROVIDER and any other number to SMS_INTERNATIONAL_PROVIDER (each unset one falls back as config.ts says).
 */
export function providerNameOf(config: Config, message: Pick<DeliveryMessage, 'channel' | 'to'>): SmsProvider | EmailProvider {
  if (message.channel === 'email') return config.channels.email;
  return parsePhoneNumberFromString(message.to)?.countryCallingCode === '86' ? config.channels.sms : config.channels.smsInternational;
}

/** The providers that call out; the outbox is a table of our own (outbox.ts). */
export const PROVIDERS: Record<Exclude<SmsProvider | EmailProvider, 'outbox'>, Provider> = {
  webhook,
  aliyun: aliyunSms,
  tencent: tencentSms,
  twilio: twilioSms,
  ses: sesEmail,
};

/** The template id settings of every kind that goes by SMS: a template SMS provider needs them all. */
const SMS_TEMPLATES = (Object.keys(MESSAGE_KINDS) as MessageKind[]).flatMap((kind): [keyof Config, string][] => {
  const form = smsFormOf(kind);
  return form ? [[form.templates, form.setting]] : [];
});

/** The settings each provider cannot do without, by wrangler name: vars, then secrets. */
const PROVIDER_SETTINGS: Record<keyof typeof PROVIDERS, { vars: [keyof Config, string][]; secrets: [keyof Config, string][] }> = {
  webhook: { vars: [['deliveryWebhookUrl', 'DELIVERY_WEBHOOK_URL']], secrets: [['deliveryWebhookSecret', 'DELIVERY_WEBHOOK_SECRET']] },
  aliyun: {
    vars: [
      ['aliyunAccessKeyId', 'ALIYUN_ACCESS_KEY_ID'],
      ...SMS_TEMPLATES,
      ['smsSignNames', 'SMS_SIGN_NAMES'],
    ],
    secrets: [['aliyunAccessKeySecret', 'ALIYUN_ACCESS_KEY_SECRET']],
  },
  tencent: {
    vars: [
      ['tencentSecretId', 'TENCENT_SECRET_ID'],
      ['tencentSmsAppId', 'TENCENT_SMS_APP_ID'],
      ...SMS_TEMPLATES,
    ],
    secrets: [['tencentSecretKey', 'TENCENT_SECRET_KEY']],
  },
  twilio: {
    vars: [
      ['twilioAccountSid', 'TWILIO_ACCOUNT_SID'],
      ['twilioFrom', 'TWILIO_FROM'],
    ],
    secrets: [['twilioAuthToken', 'TWILIO_AUTH_TOKEN']],
  },
  ses: {
    vars: [
      ['sesRegion', 'SES_REGION'],
      ['sesFrom', 'SES_FROM'],
      ['awsAccessKeyId', 'AWS_ACCESS_KEY_ID'],
    ],
    secrets: [['awsSecretAccessKey', 'AWS_SECRET_ACCESS_KEY']],
  },
};

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '' && !(typeof value === 'object' && Object.keys(value).length === 0);

/**
 * What the configured channels lack, one line each naming the setting ("missing secret TWILIO_AUTH_TOKEN (SMS_INTERNATIONAL_PROVIDER "twilio")"),
 * and a channel left on the outbox. For the startup check of a deployed Worker.
 */
export function deliveryProblems(config: Config): string[] {
  const problems: string[] = [];
  const channels = [
    ['SMS_PROVIDER', config.channels.sms],
    ['SMS_INTERNATIONAL_PROVIDER', config.channels.smsInternational],
    ['EMAIL_PROVIDER', config.channels.email],
  ] as const;
  for (const [name, provider] of channels) {
    if (provider === 'outbox') {
      problems.push(`${name} (or DELIVERY) must name a real provider, not "outbox"`);
      continue;
    }
    const needs = PROVIDER_SETTINGS[provider];
    for (const [field, setting] of needs.vars) if (!isSet(config[field])) problems.push(`missing variable ${setting} (${name} "${provider}")`);
    for (const [field, setting] of needs.secrets) if (!isSet(config[field])) problems.push(`missing secret ${setting} (${name} "${provider}")`);
  }
  return [...new Set(problems)];
}
