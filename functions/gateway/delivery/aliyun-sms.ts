import { callProvider, DeliveryFailure, jsonOf, statusFailure } from './failure';
import { required, smsTemplate, type Provider } from './message';
import { signAliyunAcs3 } from './signing';

/**
 * Alibaba Cloud SMS (Dysmsapi 2017-05-25 SendSms), signed with ACS3-HMAC-SHA256 (OpenAPI V3). The parameters
 * go in the query string; TemplateParam is the JSON of the template's named variables (`${code}`, `${minutes}`).
 */

/** Error codes that mean the number cannot be reached (the person should check it). */
const INVALID_NUMBER = new Set(['isv.MOBILE_NUMBER_ILLEGAL', 'isv.MOBILE_COUNT_OVER_LIMIT', 'isv.BLACK_KEY_CONTROL_LIMIT']);
/** Error codes of Aliyun's own rate limits (per number per minute / hour / day, or the account's QPS). */
const THROTTLED = new Set(['isv.BUSINESS_LIMIT_CONTROL', 'isv.DAY_LIMIT_CONTROL', 'Throttling', 'Throttling.User', 'Throttling.Api']);

/** Mainland numbers go as their 11 digits, others with their calling code and no "+" (Aliyun's format). */
const aliyunNumber = (e164: string) => (e164.startsWith('+86') ? e164.slice(3) : e164.slice(1));

export const aliyunSms: Provider = async (call) => {
  const { config, message, now, timeoutMs } = call;
  const { signName, templateId, params } = smsTemplate(call);
  const url = new URL(config.aliyunSmsEndpoint);
  url.pathname = '/';
  url.search = new URLSearchParams({
    PhoneNumbers: aliyunNumber(message.to),
    SignName: required(signName, 'SMS_SIGN_NAMES'),
    TemplateCode: templateId,
    TemplateParam: JSON.stringify(params),
  }).toString();
  const request = { method: 'POST', url: url.toString(), headers: { host: url.host, 'x-acs-action': 'SendSms', 'x-acs-version': '2017-05-25' }, body: '' };
  const signed = await signAliyunAcs3(request, {
    accessKeyId: required(config.aliyunAccessKeyId, 'ALIYUN_ACCESS_KEY_ID'),
    accessKeySecret: required(config.aliyunAccessKeySecret, 'ALIYUN_ACCESS_KEY_SECRET'),
    at: now,
    nonce: crypto.randomUUID().replaceAll('-', ''),
  });
  const { host: _host, ...headers } = request.headers;
  const answer = await callProvider(request.url, { method: 'POST', headers: { ...headers, ...signed, accept: 'application/json' } }, timeoutMs);
  const result = jsonOf<{ Code?: string; BizId?: string }>(answer);
  const code = result?.Code ?? '';
  if (answer.status === 200 && code === 'OK') return result?.BizId ?? null;
  if (INVALID_NUMBER.has(code)) throw new DeliveryFailure('invalid-recipient', `HTTP ${answer.status} ${code}`);
  if (THROTTLED.has(code)) throw new DeliveryFailure('throttled', `HTTP ${answer.status} ${code}`);
  throw statusFailure(answer, code);
};
