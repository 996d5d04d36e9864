/**
 * The request signatures of the delivery providers, on WebCrypto alone (their SDKs do not run on Workers).
 * Each signer is a pure function of the request and the time (and nonce) it is given, so it is tested against
 * the worked examples of the provider's own documentation (tests/unit/delivery-signatures.test.ts).
 */

import { sha256Hex, toHex as hex } from '../identity/passwords';

export { hex, sha256Hex };

const encoder = new TextEncoder();

export async function hmac(key: string | Uint8Array, message: string): Promise<Uint8Array> {
  const raw = typeof key === 'string' ? encoder.encode(key) : key;
  const imported = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', imported, encoder.encode(message)));
}

/** HMAC keys derived step by step (AWS's and Tencent's signing keys): each step keys the next. */
async function derivedKey(first: string, steps: string[]): Promise<Uint8Array> {
  let key: string | Uint8Array = first;
  for (const step of steps) key = await hmac(key, step);
  return key as Uint8Array;
}

/** RFC 3986 percent-encoding (what every canonical query string here asks for; encodeURIComponent leaves !'()*). */
export const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The sorted, encoded query string of a URL, as all three canonical requests spell it. */
const canonicalQuery = (url: URL) =>
  [...url.searchParams]
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

/** Lower-case names, trimmed values, sorted by name: the canonical headers block and the signed-header list. */
function canonicalHeaders(headers: Record<string, string>) {
  const entries = Object.entries(headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return { block: entries.map(([name, value]) => `${name}:${value}\n`).join(''), signed: entries.map(([name]) => name).join(';') };
}

export interface SignableRequest {
  method: string;
  url: string;
  /** Every header to sign (host included); the signer adds its own date / hash headers where its scheme has them. */
  headers: Record<string, string>;
  body: string;
}

const canonicalRequest = (request: SignableRequest, headers: { block: string; signed: string }, payloadHash: string) => {
  const url = new URL(request.url);
  return [request.method, url.pathname || '/', canonicalQuery(url), headers.block, headers.signed, payloadHash].join('\n');
};

/** `20150830T123600Z` */
export const amzDate = (at: number) => new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * AWS Signature Version 4: returns the headers to send (x-amz-date, x-amz-content-sha256 when asked for, and
 * Authorization). `signPayloadHeader` adds x-amz-content-sha256 to the signed headers (S3 needs it, SES does not).
 */
export async function signAwsV4(
  request: SignableRequest,
  auth: { accessKeyId: string; secretAccessKey: string; region: string; service: string; at: number; signPayloadHeader?: boolean },
): Promise<Record<string, string>> {
  const date = amzDate(auth.at);
  const payloadHash = await sha256Hex(request.body);
  const added: Record<string, string> = { 'x-amz-date': date };
  if (auth.signPayloadHeader) added['x-amz-content-sha256'] = payloadHash;
  const headers = canonicalHeaders({ ...request.headers, ...added });
  const scope = `${date.slice(0, 8)}/${auth.region}/${auth.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, await sha256Hex(canonicalRequest(request, headers, payloadHash))].join('\n');
  const key = await derivedKey(`AWS4${auth.secretAccessKey}`, [date.slice(0, 8), auth.region, auth.service, 'aws4_request']);
  const signature = hex(await hmac(key, toSign));
  return {
    ...added,
    authorization: `AWS4-HMAC-SHA256 Credential=${auth.accessKeyId}/${scope}, SignedHeaders=${headers.signed}, Signature=${signature}`,
  };
}

/**
 * Tencent Cloud API 3.0, TC3-HMAC-SHA256: the Authorization header for a request whose headers (content-type and
 * host at least) are given. `at` is the X-TC-Timestamp in milliseconds; the scope's date is its UTC date.
 */
export async function signTencentTc3(
  request: SignableRequest,
  auth: { secretId: string; secretKey: string; service: string; at: number },
): Promise<string> {
  const timestamp = Math.floor(auth.at / 1000);
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const headers = canonicalHeaders(request.headers);
  const scope = `${date}/${auth.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), scope, await sha256Hex(canonicalRequest(request, headers, await sha256Hex(request.body)))].join('\n');
  const key = await derivedKey(`TC3${auth.secretKey}`, [date, auth.service, 'tc3_request']);
  return `TC3-HMAC-SHA256 Credential=${auth.secretId}/${scope}, SignedHeaders=${headers.signed}, Signature=${hex(await hmac(key, toSign))}`;
}

/** `2023-10-26T10:22:32Z` */
export const acsDate = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Alibaba Cloud OpenAPI V3, ACS3-HMAC-SHA256: returns the headers to send (x-acs-date, x-acs-signature-nonce,
 * x-acs-content-sha256 and Authorization). `request.headers` holds host, x-acs-action and x-acs-version.
 */
export async function signAliyunAcs3(
  request: SignableRequest,
  auth: { accessKeyId: string; accessKeySecret: string; at: number; nonce: string },
): Promise<Record<string, string>> {
  const payloadHash = await sha256Hex(request.body);
  const added = { 'x-acs-date': acsDate(auth.at), 'x-acs-signature-nonce': auth.nonce, 'x-acs-content-sha256': payloadHash };
  // Aliyun signs host, content-type and every x-acs-* header.
  const signable = Object.fromEntries(
    Object.entries({ ...request.headers, ...added }).filter(([name]) => /^(host|content-type|x-acs-.*)$/i.test(name)),
  );
  const headers = canonicalHeaders(signable);
  const toSign = `ACS3-HMAC-SHA256\n${await sha256Hex(canonicalRequest(request, headers, payloadHash))}`;
  const signature = hex(await hmac(auth.accessKeySecret, toSign));
  return { ...added, authorization: `ACS3-HMAC-SHA256 Credential=${auth.accessKeyId},SignedHeaders=${headers.signed},Signature=${signature}` };
}

/**
 * Twilio's request signature (X-Twilio-Signature): base64 of HMAC-SHA1, keyed with the auth token, of the full
 * callback URL followed by every POST parameter's name and value, sorted by name.
 */
export async function twilioSignature(authToken: string, url: string, params: URLSearchParams): Promise<string> {
  const data = url + [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]) => name + value).join('');
  const key = await crypto.subtle.importKey('raw', encoder.encode(authToken), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(data)));
  let binary = '';
  for (const byte of mac) binary += String.fromCharCode(byte);
  return btoa(binary);
}
