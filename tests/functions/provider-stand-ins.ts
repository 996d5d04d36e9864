import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hex, hmac, signAliyunAcs3, signAwsV4, signTencentTc3, twilioSignature } from '../../functions/gateway/delivery/signing';

/**
 * Local stand-ins of the delivery providers (node http on port 0), started by the function tests. Each checks
 * what the real one checks before it answers: the request signature (recomputed from the bytes that arrived with
 * the signers that tests/unit/delivery-signatures.test.ts holds to each provider's documented example), the
 * credentials, and the template parameters; then answers in the provider's own shape for the mode it is in:
 * success, throttled, an invalid number, down (5xx), hang (never answers) or close (drops the connection).
 *
 * A message taken (mode success) gets an id of its own, and the stand-in prepares the status callback the real
 * provider would make for it (`receipts`: path, headers and body, signed as that provider signs), which a test
 * sends to the Worker; with `dropReceipts` set it prepares none, as a provider that loses its receipts.
 */
export type StandInMode = 'success' | 'throttled' | 'invalid' | 'down' | 'hang' | 'close';
export type ProviderName = 'aliyun' | 'tencent' | 'twilio' | 'ses' | 'webhook';

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
  /** Why the provider would refuse it (bad signature, wrong key, missing parameter); empty when it is sound. */
  problems: string[];
}

/** The credentials the stand-ins hold; the tests configure the Worker with the same ones. */
export const STAND_IN_KEYS = {
  ALIYUN_ACCESS_KEY_ID: 'LTAI-stand-in',
  ALIYUN_ACCESS_KEY_SECRET: 'aliyun-stand-in-secret',
  TENCENT_SECRET_ID: 'AKID-stand-in',
  TENCENT_SECRET_KEY: 'tencent-stand-in-secret',
  TENCENT_SMS_APP_ID: '1400000000',
  TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
  TWILIO_AUTH_TOKEN: 'twilio-stand-in-token',
  TWILIO_FROM: '+15005550006',
  DELIVERY_RECEIPT_TOKEN: 'receipt-stand-in-token-0123456789abcdef',
  AWS_ACCESS_KEY_ID: 'AKID-SES-STAND-IN',
  AWS_SECRET_ACCESS_KEY: 'aws-stand-in-secret',
  SES_REGION: 'eu-west-1',
  SES_FROM: 'no-reply@portal.example.com',
  DELIVERY_WEBHOOK_SECRET: 'webhook-stand-in-secret',
};

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Handler = (request: Received, mode: StandInMode, ref: string) => Promise<Answer>;

const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({ status, body, headers });
const down = (): Answer => ({ status: 503, body: 'Service Unavailable' });

const aliyun: Handler = async (request, mode, ref) => {
  const h = request.headers;
  const expected = await signAliyunAcs3(
    { method: request.method, url: `http://${h.host}${request.path}?${request.query}`, headers: { host: h.host!, 'x-acs-action': h['x-acs-action']!, 'x-acs-version': h['x-acs-version']! }, body: request.body },
    { accessKeyId: STAND_IN_KEYS.ALIYUN_ACCESS_KEY_ID, accessKeySecret: STAND_IN_KEYS.ALIYUN_ACCESS_KEY_SECRET, at: Date.parse(h['x-acs-date'] ?? ''), nonce: h['x-acs-signature-nonce'] ?? '' },
  );
  if (h.authorization !== expected.authorization) request.problems.push('signature');
  if (h['x-acs-action'] !== 'SendSms' || h['x-acs-version'] !== '2017-05-25') request.problems.push('action');
  for (const name of ['PhoneNumbers', 'SignName', 'TemplateCode', 'TemplateParam']) if (!request.query.get(name)) request.problems.push(`missing ${name}`);
  if (request.problems.length) return json(400, { Code: 'SignatureDoesNotMatch', Message: request.problems.join(', ') });
  if (mode === 'down') return down();
  if (mode === 'throttled') return json(200, { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控Permits:1', RequestId: 'r1' });
  if (mode === 'invalid') return json(200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号', RequestId: 'r1' });
  return json(200, { Code: 'OK', Message: 'OK', BizId: ref, RequestId: 'r1' });
};

const tencent: Handler = async (request, mode, ref) => {
  const h = request.headers;
  const expected = await signTencentTc3(
    { method: request.method, url: `http://${h.host}${request.path}`, headers: { 'content-type': h['content-type']!, host: h.host! }, body: request.body },
    { secretId: STAND_IN_KEYS.TENCENT_SECRET_ID, secretKey: STAND_IN_KEYS.TENCENT_SECRET_KEY, service: 'sms', at: Number(h['x-tc-timestamp']) * 1000 },
  );
  if (h.authorization !== expected) request.problems.push('signature');
  if (h['x-tc-action'] !== 'SendSms' || h['x-tc-version'] !== '2021-01-11') request.problems.push('action');
  const body = JSON.parse(request.body || '{}') as Record<string, unknown>;
  if (body.SmsSdkAppId !== STAND_IN_KEYS.TENCENT_SMS_APP_ID) request.problems.push('SmsSdkAppId');
  if (!Array.isArray(body.TemplateParamSet) || !body.TemplateId) request.problems.push('template');
  if (request.problems.length) return json(200, { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: request.problems.join(', ') }, RequestId: 'r1' } });
  if (mode === 'down') return json(200, { Response: { Error: { Code: 'InternalError.RequestTimeException', Message: 'timeout' }, RequestId: 'r1' } });
  const status = (code: string) => json(200, { Response: { SendStatusSet: [{ Code: code, PhoneNumber: (body.PhoneNumberSet as string[])[0], SerialNo: ref }], RequestId: 'r1' } });
  if (mode === 'throttled') return status('LimitExceeded.PhoneNumberThirtySecondLimit');
  if (mode === 'invalid') return status('InvalidParameterValue.IncorrectPhoneNumber');
  return status('Ok');
};

const twilio: Handler = async (request, mode, ref) => {
  const expected = `Basic ${Buffer.from(`${STAND_IN_KEYS.TWILIO_ACCOUNT_SID}:${STAND_IN_KEYS.TWILIO_AUTH_TOKEN}`).toString('base64')}`;
  if (request.headers.authorization !== expected) return json(401, { code: 20003, message: 'Authenticate', status: 401 });
  if (request.path !== `/2010-04-01/Accounts/${STAND_IN_KEYS.TWILIO_ACCOUNT_SID}/Messages.json`) request.problems.push('path');
  const form = new URLSearchParams(request.body);
  if (!form.get('To') || !form.get('Body') || form.get('From') !== STAND_IN_KEYS.TWILIO_FROM) request.problems.push('form');
  if (request.problems.length) return json(400, { code: 21604, message: request.problems.join(', '), status: 400 });
  if (mode === 'down') return down();
  if (mode === 'throttled') return json(429, { code: 20429, message: 'Too Many Requests', status: 429 });
  if (mode === 'invalid') return json(400, { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 });
  return json(201, { sid: ref, status: 'queued' });
};

const ses: Handler = async (request, mode, ref) => {
  const h = request.headers;
  const amzDate = h['x-amz-date'] ?? '';
  const at = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  const expected = await signAwsV4(
    { method: request.method, url: `http://${h.host}${request.path}`, headers: { 'content-type': h['content-type']!, host: h.host! }, body: request.body },
    { accessKeyId: STAND_IN_KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: STAND_IN_KEYS.AWS_SECRET_ACCESS_KEY, region: STAND_IN_KEYS.SES_REGION, service: 'ses', at },
  );
  if (h.authorization !== expected.authorization) return json(403, { message: 'The request signature we calculated does not match' }, { 'x-amzn-errortype': 'SignatureDoesNotMatch' });
  if (request.path !== '/v2/email/outbound-emails') request.problems.push('path');
  const body = JSON.parse(request.body || '{}') as { FromEmailAddress?: string; Destination?: { ToAddresses?: string[] }; Content?: { Simple?: unknown } };
  if (body.FromEmailAddress !== STAND_IN_KEYS.SES_FROM || !body.Destination?.ToAddresses?.length || !body.Content?.Simple) request.problems.push('body');
  if (request.problems.length) return json(400, { message: request.problems.join(', ') }, { 'x-amzn-errortype': 'BadRequestException' });
  if (mode === 'down') return json(500, { message: 'Internal failure' }, { 'x-amzn-errortype': 'InternalFailure' });
  if (mode === 'throttled') return json(429, { message: 'Maximum sending rate exceeded.' }, { 'x-amzn-errortype': 'TooManyRequestsException' });
  if (mode === 'invalid') return json(400, { message: 'Email address is not verified.' }, { 'x-amzn-errortype': 'MessageRejected' });
  return json(200, { MessageId: ref });
};

const webhook: Handler = async (request, mode) => {
  const expected = hex(await hmac(STAND_IN_KEYS.DELIVERY_WEBHOOK_SECRET, request.body));
  if (request.headers['x-signature'] !== expected) return json(401, { error: 'bad signature' });
  if (mode === 'down') return down();
  if (mode === 'throttled') return json(429, { error: 'slow down' });
  if (mode === 'invalid') return json(422, { error: 'unknown recipient' });
  return json(200, { ok: true });
};

const HANDLERS: Record<ProviderName, Handler> = { aliyun, tencent, twilio, ses, webhook };

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** A status callback as the provider would make it: to `${receiptBase}${path}` with these headers and body. */
export interface PreparedReceipt {
  ref: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** "2026-11-27 10:20:30" in China Standard Time, as Aliyun and Tencent write report times. */
export const chinaTime = (at: number) => new Date(at + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The callback the provider makes for message `ref` (`status` delivered or failed), signed as it signs:
 * `receiptBase` is the Worker's public address of /api (PORTAL_ORIGIN + "/api"), which Twilio's signature covers.
 */
export async function receiptOf(provider: ProviderName, ref: string, status: 'delivered' | 'failed', receiptBase: string, at = Date.now()): Promise<PreparedReceipt | null> {
  const token = STAND_IN_KEYS.DELIVERY_RECEIPT_TOKEN;
  const json = { 'content-type': 'application/json' };
  switch (provider) {
    case 'aliyun':
      return { ref, path: `/delivery/receipts/aliyun/${token}`, headers: json, body: JSON.stringify([{ phone_number: '13900000000', send_time: chinaTime(at - 2000), report_time: chinaTime(at), success: status === 'delivered', err_code: status === 'delivered' ? 'DELIVERED' : 'MK:0001', err_msg: '', sms_size: '1', biz_id: ref, out_id: '' }]) };
    case 'tencent':
      return { ref, path: `/delivery/receipts/tencent/${token}`, headers: json, body: JSON.stringify([{ user_receive_time: chinaTime(at), nationcode: '86', mobile: '13900000000', report_status: status === 'delivered' ? 'SUCCESS' : 'FAIL', errmsg: 'DELIVRD', description: '', sid: ref }]) };
    case 'twilio': {
      const form = new URLSearchParams({ MessageSid: ref, MessageStatus: status === 'delivered' ? 'delivered' : 'undelivered', AccountSid: STAND_IN_KEYS.TWILIO_ACCOUNT_SID, To: '+447400000000' });
      const signature = await twilioSignature(STAND_IN_KEYS.TWILIO_AUTH_TOKEN, `${receiptBase}/delivery/receipts/twilio`, form);
      return { ref, path: '/delivery/receipts/twilio', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, body: form.toString() };
    }
    case 'ses': {
      const event = { eventType: status === 'delivered' ? 'Delivery' : 'Bounce', mail: { messageId: ref, timestamp: new Date(at - 2000).toISOString() } };
      const note = { Type: 'Notification', MessageId: crypto.randomUUID(), TopicArn: 'arn:aws:sns:eu-west-1:000000000000:ses-events', Message: JSON.stringify(event), Timestamp: new Date(at).toISOString() };
      return { ref, path: '/delivery/receipts/ses', headers: { ...json, authorization: `Basic ${btoa(`sns:${token}`)}` }, body: JSON.stringify(note) };
    }
    case 'webhook':
      return null;
  }
}

/** Starts one provider's stand-in; `mode` may be changed between calls. */
export async function startStandIn(provider: ProviderName, { receiptBase = 'http://127.0.0.1:8787/api' } = {}) {
  const received: Received[] = [];
  const receipts: PreparedReceipt[] = [];
  const state = { mode: 'success' as StandInMode, dropReceipts: false };
  let sent = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    const request: Received = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers, body: await bodyOf(req), problems: [] };
    received.push(request);
    if (state.mode === 'hang') return;
    if (state.mode === 'close') return void req.socket.destroy();
    const ref = `${provider}-${process.pid}-${Date.now().toString(36)}-${++sent}`;
    const answer = await HANDLERS[provider](request, state.mode, ref);
    if (state.mode === 'success' && answer.status < 300 && !request.problems.length && !state.dropReceipts) {
      const prepared = await receiptOf(provider, ref, 'delivered', receiptBase);
      if (prepared) receipts.push(prepared);
    }
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** The status callbacks of the messages taken so far (none while `dropReceipts`). */
    receipts,
    set dropReceipts(drop: boolean) {
      state.dropReceipts = drop;
    },
    set mode(mode: StandInMode) {
      state.mode = mode;
    },
    get mode() {
      return state.mode;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type StandIn = Awaited<ReturnType<typeof startStandIn>>;
