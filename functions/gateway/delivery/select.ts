import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import type { Config, EmailProvider, SmsProvider } from '../../config';
import { aliyunSms } from './aliyun-sms';
import { MESSAGE_KINDS, smsFormOf, type DeliveryMessage, type MessageKind, type Provider } from './message';
import { sesEmail } from './ses-email';
import { tencentSms } from './tencent-sms';
import { twilioSms } from './twilio-sms';
import { webhook } from './webhook';

/**
 * A message's group: e-mail, an SMS to a calling code SMS_ROUTES names ("+852"), to a mainland China number
 * ("sms"), or to any other number ("smsInternational").
 */
export type RouteGroup = 'sms' | 'smsInternational' | 'email' | `+${string}`;

export function routeGroupOf(config: Config, message: Pick<DeliveryMessage, 'channel' | 'to'>): RouteGroup {
  if (message.channel === 'email') return 'email';
  const code = parsePhoneNumberFromString(message.to)?.countryCallingCode;
  if (code && `+${code}` in config.smsRoutes) return `+${code}`;
  return code === '86' ? 'sms' : 'smsInternational';
}

/** Every group's ordered list: SMS_ROUTES' calling codes, then the two SMS groups and e-mail. */
export function routes(config: Config): [RouteGroup, (SmsProvider | EmailProvider)[]][] {
  return [...(Object.entries(config.smsRoutes) as [RouteGroup, SmsProvider[]][]), ['sms', config.channels.sms], ['smsInternational', config.channels.smsInternational], ['email', config.channels.email]];
}

/**
 * The providers that take a message, in the order they are tried: e-mail goes down EMAIL_PROVIDER; an SMS to a
 * calling code of SMS_ROUTES down its own list, to a mainland China number (+86) down SMS_PROVIDER and to any
 * other number down SMS_INTERNATIONAL_PROVIDER (each unset one falls back as config.ts says).
 */
export function routeOf(config: Config, message: Pick<DeliveryMessage, 'channel' | 'to'>): (SmsProvider | EmailProvider)[] {
  const group = routeGroupOf(config, message);
  return group.startsWith('+') ? config.smsRoutes[group]! : config.channels[group as 'sms' | 'smsInternational' | 'email'];
}

/** Every provider a list of this configuration names, each once (the breakers the operators' view shows). */
export function configuredProviders(config: Config): (SmsProvider | EmailProvider)[] {
  return [...new Set(routes(config).flatMap(([, list]) => list))];
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
    ...Object.entries(config.smsRoutes).map(([code, list]) => [`SMS_ROUTES ${code}`, list] as const),
    ['SMS_PROVIDER', config.channels.sms],
    ['SMS_INTERNATIONAL_PROVIDER', config.channels.smsInternational],
    ['EMAIL_PROVIDER', config.channels.email],
  ] as const;
  for (const [name, providers] of channels) {
    for (const provider of providers) {
      if (provider === 'outbox') {
        problems.push(`${name} (or DELIVERY) must name a real provider, not "outbox"`);
        continue;
      }
      for (const missing of missingSettings(config, provider)) problems.push(`${missing} (${name} "${provider}")`);
    }
  }
  return [...new Set(problems)];
}

/** What one provider lacks of its settings ("missing secret TWILIO_AUTH_TOKEN"); empty when it can send. */
export function missingSettings(config: Config, provider: keyof typeof PROVIDERS): string[] {
  const needs = PROVIDER_SETTINGS[provider];
  return [
    ...needs.vars.filter(([field]) => !isSet(config[field])).map(([, setting]) => `missing variable ${setting}`),
    ...needs.secrets.filter(([field]) => !isSet(config[field])).map(([, setting]) => `missing secret ${setting}`),
  ];
}

/** Whether the provider's key (its secret) is configured at all: without it, a local run stands in for it. */
export const hasKey = (config: Config, provider: keyof typeof PROVIDERS) => PROVIDER_SETTINGS[provider].secrets.every(([field]) => isSet(config[field]));
