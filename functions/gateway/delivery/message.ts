import type { Lang } from '../../../src/lib/lang';
import type { Config } from '../../config';

type Channel = 'sms' | 'email';
type TemplateSetting = 'smsCodeTemplates' | 'smsNoticeTemplates' | 'smsReviewTemplates' | 'smsSecurityTemplates';
interface SmsForm {
  templates: TemplateSetting;
  setting: string;
  variables: readonly string[];
}
interface KindSpec {
  channels: readonly Channel[];
  sms?: SmsForm;
}

/**
 * Every kind of message the gateway sends: the channels it may go by and, where one is SMS, its template SMS
 * form for Aliyun and Tencent, which carry no free text: the setting with its template id per language and the
 * template's variables in template order (Tencent numbers them {1}, {2}; Aliyun names them).
 */
export const MESSAGE_KINDS = {
  code: { channels: ['sms', 'email'], sms: { templates: 'smsCodeTemplates', setting: 'SMS_CODE_TEMPLATES', variables: ['code', 'minutes'] } },
  newDevice: { channels: ['sms', 'email'], sms: { templates: 'smsNoticeTemplates', setting: 'SMS_NOTICE_TEMPLATES', variables: ['when', 'device'] } },
  reviewDecision: { channels: ['sms', 'email'], sms: { templates: 'smsReviewTemplates', setting: 'SMS_REVIEW_TEMPLATES', variables: ['company', 'status'] } },
  signInLink: { channels: ['email'] },
  grantChange: { channels: ['email'] },
  /** An approved company's registry status changed (registry/service.ts): e-mail to its administrator. */
  registryChange: { channels: ['email'] },
  /** A company's webhook endpoint was stopped (410, or failing for 5 days; webhooks/delivery.ts): e-mail to its administrators. */
  webhookStopped: { channels: ['email'] },
  securityChange: { channels: ['sms', 'email'], sms: { templates: 'smsSecurityTemplates', setting: 'SMS_SECURITY_TEMPLATES', variables: ['when', 'change'] } },
} as const satisfies Record<string, KindSpec>;

export type MessageKind = keyof typeof MESSAGE_KINDS;

/** The template SMS form of a kind, when it goes by SMS. */
export function smsFormOf(kind: MessageKind): SmsForm | undefined {
  const spec: KindSpec = MESSAGE_KINDS[kind];
  return spec.sms;
}

/** One message to a person: an SMS or an e-mail. */
export interface DeliveryMessage {
  kind: MessageKind;
  channel: Channel;
  /** E.164 phone or lower-case e-mail. */
  to: string;
  subject: string;
  text: string;
  /** The language of the text; template SMS pick their sign name and template by it. */
  lang: Lang;
  /** The values of the kind's template variables (MESSAGE_KINDS), which template SMS send instead of the text. */
  params?: Record<string, string>;
}

/** What a provider needs for one send. */
export interface ProviderCall {
  config: Config;
  message: DeliveryMessage;
  now: number;
}

/**
 * Sends one message and returns the provider's id of it (which its delivery receipt names; none for the webhook),
 * or throws a DeliveryFailure (the provider's answer) or an Error (our configuration). `timeoutMs` is what is left
 * of the send's overall time limit for this provider (at most DELIVERY_TIMEOUT_MS).
 */
export type Provider = (call: ProviderCall & { timeoutMs: number }) => Promise<string | null>;

/** A setting a provider cannot do without; a deployed Worker refuses to start without it (startup-check.ts). */
export function required<T>(value: T | undefined | null, name: string): T {
  if (value === undefined || value === null || value === '') throw new Error(`delivery needs ${name}`);
  return value;
}

/**
 * The sign name, template id and variables (in template order) of a template SMS in the message's language
 * (English falls back to Chinese).
 */
export function smsTemplate({ config, message }: ProviderCall) {
  const form = required(smsFormOf(message.kind), `a template SMS form of "${message.kind}"`);
  const pick = (values: Partial<Record<Lang, string>>) => values[message.lang] ?? values.zh;
  const params = Object.fromEntries(form.variables.map((name) => [name, required(message.params?.[name], `the template variable ${name}`)]));
  return { signName: pick(config.smsSignNames) ?? '', templateId: required(pick(config[form.templates]), form.setting), params };
}
