import { callProvider, DeliveryFailure, jsonOf, statusFailure } from './failure';
import { required, type Provider } from './message';
import { signAwsV4 } from './signing';

/** Amazon SES v2 SendEmail (a plain-text e-mail), signed with AWS Signature Version 4 for the service "ses". */

const THROTTLED = new Set(['TooManyRequestsException', 'LimitExceededException', 'Throttling']);

/** The error type of an AWS JSON answer: its header, else the body's __type ("…#Name" keeps the name). */
const errorType = (headers: Headers, body: { __type?: string } | null) =>
  (headers.get('x-amzn-errortype') ?? body?.__type ?? '').split(':')[0]!.split('#').pop()!;

export const sesEmail: Provider = async ({ config, message, now, timeoutMs }) => {
  const region = required(config.sesRegion, 'SES_REGION');
  const url = new URL('/v2/email/outbound-emails', config.sesEndpoint ?? `https://email.${region}.amazonaws.com`);
  const utf8 = (data: string) => ({ Data: data, Charset: 'UTF-8' });
  const body = JSON.stringify({
    FromEmailAddress: required(config.sesFrom, 'SES_FROM'),
    Destination: { ToAddresses: [message.to] },
    Content: { Simple: { Subject: utf8(message.subject), Body: { Text: utf8(message.text) } } },
  });
  const signedHeaders = { 'content-type': 'application/json', host: url.host };
  const signed = await signAwsV4(
    { method: 'POST', url: url.toString(), headers: signedHeaders, body },
    {
      accessKeyId: required(config.awsAccessKeyId, 'AWS_ACCESS_KEY_ID'),
      secretAccessKey: required(config.awsSecretAccessKey, 'AWS_SECRET_ACCESS_KEY'),
      region,
      service: 'ses',
      at: now,
    },
  );
  const answer = await callProvider(
    url.toString(),
    { method: 'POST', headers: { 'content-type': signedHeaders['content-type'], ...signed }, body },
    timeoutMs,
  );
  if (answer.status === 200) return jsonOf<{ MessageId?: string }>(answer)?.MessageId ?? null;
  const type = errorType(answer.headers, jsonOf(answer));
  if (THROTTLED.has(type)) throw new DeliveryFailure('throttled', `HTTP ${answer.status} ${type}`);
  // SES refuses an address it cannot send to (malformed, or on the account's suppression list) as MessageRejected.
  if (answer.status === 400 && type === 'MessageRejected') throw new DeliveryFailure('invalid-recipient', `HTTP 400 ${type}`);
  throw statusFailure(answer, type);
};
