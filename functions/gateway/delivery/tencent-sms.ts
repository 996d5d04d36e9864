import { callProvider, DeliveryFailure, jsonOf, statusFailure } from './failure';
import { required, smsTemplate, type Provider } from './message';
import { signTencentTc3 } from './signing';

/**
 * Tencent Cloud SMS (SendSms 2021-01-11), signed with TC3-HMAC-SHA256. Tencent templates number their
 * variables ({1}, {2}), so TemplateParamSet is the message's parameters in order.
 */

const INVALID_NUMBER = /^(InvalidParameterValue\.IncorrectPhoneNumber|FailedOperation\.PhoneNumberInBlacklist|UnsupportedOperation\.UnsupportedRegion|FailedOperation\.PhoneNumberParseFail)/;
const THROTTLED = /^(LimitExceeded\.|RequestLimitExceeded)/;

interface SendSmsAnswer {
  Response?: { Error?: { Code?: string }; SendStatusSet?: { Code?: string; SerialNo?: string }[] };
}

export const tencentSms: Provider = async (call) => {
  const { config, message, now, timeoutMs } = call;
  const { signName, templateId, params } = smsTemplate(call);
  const url = new URL(config.tencentSmsEndpoint);
  url.pathname = '/';
  const body = JSON.stringify({
    PhoneNumberSet: [message.to],
    SmsSdkAppId: required(config.tencentSmsAppId, 'TENCENT_SMS_APP_ID'),
    // Numbers outside China take no sign name.
    ...(signName ? { SignName: signName } : {}),
    TemplateId: templateId,
    TemplateParamSet: Object.values(params),
  });
  const signedHeaders = { 'content-type': 'application/json; charset=utf-8', host: url.host };
  const authorization = await signTencentTc3(
    { method: 'POST', url: url.toString(), headers: signedHeaders, body },
    {
      secretId: required(config.tencentSecretId, 'TENCENT_SECRET_ID'),
      secretKey: required(config.tencentSecretKey, 'TENCENT_SECRET_KEY'),
      service: 'sms',
      at: now,
    },
  );
  const headers = {
    'content-type': signedHeaders['content-type'],
    authorization,
    'x-tc-action': 'SendSms',
    'x-tc-version': '2021-01-11',
    'x-tc-timestamp': String(Math.floor(now / 1000)),
    'x-tc-region': config.tencentSmsRegion,
  };
  const answer = await callProvider(url.toString(), { method: 'POST', headers, body }, timeoutMs);
  const result = jsonOf<SendSmsAnswer>(answer)?.Response;
  // The call's own error (signature, rate, outage), else the one number's status.
  const code = result?.Error?.Code ?? result?.SendStatusSet?.[0]?.Code ?? '';
  if (answer.status === 200 && code === 'Ok') return result?.SendStatusSet?.[0]?.SerialNo ?? null;
  if (INVALID_NUMBER.test(code)) throw new DeliveryFailure('invalid-recipient', `HTTP ${answer.status} ${code}`);
  if (THROTTLED.test(code)) throw new DeliveryFailure('throttled', `HTTP ${answer.status} ${code}`);
  throw statusFailure(answer, code);
};
