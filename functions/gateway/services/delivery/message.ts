import type { Lang } from '../../../../src/lib/lang';
import type { Config } from '../../../config';

/** One message to a person: an SMS or an e-mail. */
export interface DeliveryMessage {
  channel: 'sms' | 'email';
  /** E.164 phone or lower-case e-mail. */
  to: string;
  subject: string;
  text: string;
  /** The language of the text; template SMS pick their sign name and template by it. */
  lang: Lang;
  /**
   * What template SMS providers (Aliyun, Tencent) send instead of the text, which they do not carry: the kind of
   * message and its parameters in template order. Absent: the message cannot go by template SMS.
   */
  template?: { kind: 'code' | 'notice'; params: Record<string, string> };
}

/** What a provider needs for one send. */
export interface ProviderCall {
  config: Config;
  message: DeliveryMessage;
  now: number;
}

/** Sends one message or throws a DeliveryFailure (the provider's answer) or an Error (our configuration). */
export type Provider = (call: ProviderCall) => Promise<void>;

/** A setting a provider cannot do without; a deployed Worker refuses to start without it (startup-check.ts). */
export function required<T>(value: T | undefined | null, name: string): T {
  if (value === undefined || value === null || value === '') throw new Error(`delivery needs ${name}`);
  return value;
}

/** The sign name, template id and parameters of a template SMS in the message's language (English falls back to Chinese). */
export function smsTemplate({ config, message }: ProviderCall) {
  const template = required(message.template, 'a template for this message');
  const templates = template.kind === 'code' ? config.smsCodeTemplates : config.smsNoticeTemplates;
  const pick = (values: Partial<Record<Lang, string>>) => values[message.lang] ?? values.zh;
  const name = template.kind === 'code' ? 'SMS_CODE_TEMPLATES' : 'SMS_NOTICE_TEMPLATES';
  return { signName: pick(config.smsSignNames) ?? '', templateId: required(pick(templates), name), params: template.params };
}
