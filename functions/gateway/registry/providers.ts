import type { Config } from '../../config';
import { fetchText, OutboundFailure, type TextAnswer } from '../../outbound';
import { signAliyunAcs3, signTencentTc3 } from '../delivery/signing';
import type { RegistryField, RegistryStatus } from '../../../src/schemas/registry';

/**
 * The registry providers (issue 42), called with fetch and the request signers the SMS providers use
 * (delivery/signing.ts): Tencent Cloud `VerifyBizLicenseEnterprise4` (TC3-HMAC-SHA256) and Aliyun Dytnsapi
 * `CompanyFourElementsVerification` (ACS3-HMAC-SHA256). A re-check without the legal representative (monthly, or
 * an operator's) asks Aliyun's two-element operation and Tencent's same action without the person's fields.
 *
 * Each answer is read into one shape, RegistryAnswer; anything else (a 5xx, a refusal of our request, throttling,
 * no answer in time) is a RegistryFailure, and the list goes on to the next provider.
 */

export const REGISTRY_PROVIDERS = ['tencent', 'aliyun'] as const;
export type RegistryProviderName = (typeof REGISTRY_PROVIDERS)[number];

/** What is checked. The legal representative only at application, straight from the request, never stored. */
export interface RegistryQuery {
  name: string;
  code: string;
  legalRep?: { name: string; id: string };
}

export interface RegistryAnswer {
  found: boolean;
  differing: RegistryField[];
  status: RegistryStatus | null;
}

export class RegistryFailure extends Error {
  constructor(
    readonly kind: 'unavailable' | 'throttled',
    /** The provider's status and error code, for the log: never what was asked. */
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'RegistryFailure';
  }
}

/** Where a provider's request goes: the network, or (a local run without its keys) the stand-in in this isolate. */
export type Send = (url: string, init: RequestInit, timeoutMs: number) => Promise<TextAnswer>;

export const networkSend: Send = async (url, init, timeoutMs) => {
  try {
    return await fetchText(url, init, timeoutMs);
  } catch (error) {
    if (error instanceof OutboundFailure) throw new RegistryFailure('unavailable', `${error.reason}: ${error.message}`);
    throw error;
  }
};

export interface ProviderKeys {
  tencent: { secretId: string; secretKey: string; endpoint: string };
  aliyun: { accessKeyId: string; accessKeySecret: string; endpoint: string; authCode: string };
}

/** The registry's words for a company's standing (both providers pass them through) in ours. */
export function registryStatusOf(text: string | undefined | null): RegistryStatus | null {
  if (!text) return null;
  if (/存续|在业|在营|开业|正常/.test(text)) return 'operating';
  if (/吊销/.test(text)) return 'revoked';
  if (/撤销/.test(text)) return 'cancelled';
  if (/注销/.test(text)) return 'deregistered';
  if (/停业|歇业|经营异常/.test(text)) return 'suspended';
  return null;
}

const json = <T>(answer: TextAnswer): T | null => {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    return null;
  }
};

export const TENCENT_REGISTRY_ACTION = 'VerifyBizLicenseEnterprise4';
export const TENCENT_REGISTRY_VERSION = '2018-11-19';
export const ALIYUN_REGISTRY_VERSION = '2020-02-17';
export const aliyunRegistryAction = (query: RegistryQuery) => (query.legalRep ? 'CompanyFourElementsVerification' : 'CompanyTwoElementsVerification');

interface TencentAnswer {
  Response?: {
    Error?: { Code?: string };
    /** 1 every field matches, 2 some differ (Detail says which), 3 no such company. */
    State?: number;
    /** 0 the field matches, 1 it differs. */
    Detail?: { EnterpriseNameCode?: number; EnterpriseMarkCode?: number; RealNameCode?: number; IdCardCode?: number };
    EnterpriseStatus?: string;
  };
}

export async function tencentRegistry(keys: ProviderKeys['tencent'], query: RegistryQuery, at: number, send: Send, timeoutMs: number): Promise<RegistryAnswer> {
  const url = new URL(keys.endpoint);
  url.pathname = '/';
  const body = JSON.stringify({
    EnterpriseName: query.name,
    EnterpriseMark: query.code,
    ...(query.legalRep ? { RealName: query.legalRep.name, IdCard: query.legalRep.id } : {}),
  });
  const signedHeaders = { 'content-type': 'application/json; charset=utf-8', host: url.host };
  const authorization = await signTencentTc3({ method: 'POST', url: url.toString(), headers: signedHeaders, body }, { secretId: keys.secretId, secretKey: keys.secretKey, service: 'ocr', at });
  const answer = await send(
    url.toString(),
    {
      method: 'POST',
      headers: {
        'content-type': signedHeaders['content-type'],
        authorization,
        'x-tc-action': TENCENT_REGISTRY_ACTION,
        'x-tc-version': TENCENT_REGISTRY_VERSION,
        'x-tc-timestamp': String(Math.floor(at / 1000)),
      },
      body,
    },
    timeoutMs,
  );
  const result = json<TencentAnswer>(answer)?.Response;
  const error = result?.Error?.Code;
  if (answer.status !== 200 || error || !result?.State) {
    throw new RegistryFailure(/^(LimitExceeded|RequestLimitExceeded)/.test(error ?? '') || answer.status === 429 ? 'throttled' : 'unavailable', `HTTP ${answer.status} ${error ?? ''}`.trim());
  }
  if (result.State === 3) return { found: false, differing: [], status: null };
  const d = result.Detail ?? {};
  const differing: RegistryField[] = [];
  if (d.EnterpriseNameCode) differing.push('name');
  if (d.EnterpriseMarkCode) differing.push('code');
  if (d.RealNameCode) differing.push('legalRepName');
  if (d.IdCardCode) differing.push('legalRepId');
  return { found: true, differing, status: registryStatusOf(result.EnterpriseStatus) };
}

interface AliyunAnswer {
  Code?: string;
  Data?: {
    VerifyResult?: string;
    /** 0 all match and operating, 1 some differ, 2 not operating, 3 no such company. */
    ReasonCode?: number;
    /** The differing elements, as Aliyun names them. */
    InconsistentData?: string[];
    DetailInfo?: { enterpriseStatus?: string };
  };
}

const ALIYUN_FIELDS: Record<string, RegistryField> = {
  EpCertName: 'name',
  EpCertNo: 'code',
  LegalPersonCertName: 'legalRepName',
  LegalPersonCertNo: 'legalRepId',
};

export async function aliyunRegistry(keys: ProviderKeys['aliyun'], query: RegistryQuery, at: number, send: Send, timeoutMs: number): Promise<RegistryAnswer> {
  const url = new URL(keys.endpoint);
  url.pathname = '/';
  url.search = new URLSearchParams({
    AuthCode: keys.authCode,
    EpCertName: query.name,
    EpCertNo: query.code,
    ...(query.legalRep ? { LegalPersonCertName: query.legalRep.name, LegalPersonCertNo: query.legalRep.id } : {}),
  }).toString();
  const request = { method: 'POST', url: url.toString(), headers: { host: url.host, 'x-acs-action': aliyunRegistryAction(query), 'x-acs-version': ALIYUN_REGISTRY_VERSION }, body: '' };
  const signed = await signAliyunAcs3(request, { accessKeyId: keys.accessKeyId, accessKeySecret: keys.accessKeySecret, at, nonce: crypto.randomUUID().replaceAll('-', '') });
  const { host: _host, ...headers } = request.headers;
  const answer = await send(request.url, { method: 'POST', headers: { ...headers, ...signed, accept: 'application/json' } }, timeoutMs);
  const result = json<AliyunAnswer>(answer);
  const code = result?.Code ?? '';
  if (answer.status !== 200 || code !== 'OK' || result?.Data?.ReasonCode === undefined) {
    throw new RegistryFailure(/^Throttling/.test(code) || answer.status === 429 ? 'throttled' : 'unavailable', `HTTP ${answer.status} ${code}`.trim());
  }
  const data = result.Data!;
  if (data.ReasonCode === 3) return { found: false, differing: [], status: null };
  const differing = (data.InconsistentData ?? []).map((name) => ALIYUN_FIELDS[name]).filter((field): field is RegistryField => Boolean(field));
  // ReasonCode 1 without the names still differs: the verdict says so, without a field.
  const status = registryStatusOf(data.DetailInfo?.enterpriseStatus) ?? (data.ReasonCode === 2 ? 'suspended' : data.ReasonCode === 0 ? 'operating' : null);
  return { found: true, differing: data.ReasonCode === 1 && !differing.length ? ['name'] : differing, status };
}

/** Calls one provider by name. */
export function callRegistry(name: RegistryProviderName, keys: ProviderKeys, query: RegistryQuery, at: number, send: Send, timeoutMs: number) {
  return name === 'tencent' ? tencentRegistry(keys.tencent, query, at, send, timeoutMs) : aliyunRegistry(keys.aliyun, query, at, send, timeoutMs);
}

/** The keys of each provider from the configuration; null where one is missing. */
export function configuredKeys(config: Config): Partial<ProviderKeys> {
  const keys: Partial<ProviderKeys> = {};
  if (config.tencentSecretId && config.tencentSecretKey) {
    keys.tencent = { secretId: config.tencentSecretId, secretKey: config.tencentSecretKey, endpoint: config.tencentRegistryEndpoint };
  }
  if (config.aliyunAccessKeyId && config.aliyunAccessKeySecret && config.aliyunRegistryAuthCode) {
    keys.aliyun = { accessKeyId: config.aliyunAccessKeyId, accessKeySecret: config.aliyunAccessKeySecret, endpoint: config.aliyunRegistryEndpoint, authCode: config.aliyunRegistryAuthCode };
  }
  return keys;
}
