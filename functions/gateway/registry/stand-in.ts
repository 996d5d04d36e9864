import type { TextAnswer } from '../../outbound';
import { signAliyunAcs3, signTencentTc3 } from '../delivery/signing';
import { checkUscc } from '../../../src/schemas/registry-numbers';
import { RegistryFailure, TENCENT_REGISTRY_ACTION, TENCENT_REGISTRY_VERSION, ALIYUN_REGISTRY_VERSION, type ProviderKeys, type RegistryProviderName, type Send } from './providers';

/**
 * The local stand-in of the registry providers (DEV_OUTBOX "true" and a provider without its keys; the startup
 * check never lets a deployment use it), called in this isolate with the same time limit as the network. Like the
 * real ones it first checks the request's signature (TC3 or ACS3, recomputed with the stand-in's public keys) and
 * the action, then answers in the provider's shape from its book:
 * - a code not in the book whose check character is right is a company that exists, is operating, and matches
 *   whatever name is sent; a code with a wrong check character is not found;
 * - `setStandInCompany(code, entry)` says otherwise: `missing`, another `name` (the sent name then differs),
 *   `repDiffers` (the legal representative's name and number differ), a `status` in the registry's words
 *   ("吊销", "注销", "撤销", "停业"), which a test changes to play "status changed";
 * - `setStandInMode(provider, mode)`: `down` (503), `hang` (never answers), `throttled`, or null.
 * The book holds no person's data (a flag, not a legal representative). Function tests and `POST /api/dev/registry`
 * set it; it lives as long as the isolate.
 */

export const STAND_IN_KEYS: ProviderKeys = {
  tencent: { secretId: 'AKID-registry-stand-in', secretKey: 'registry-stand-in-tencent', endpoint: 'http://tencent-registry-stand-in.internal' },
  aliyun: { accessKeyId: 'LTAI-registry-stand-in', accessKeySecret: 'registry-stand-in-aliyun', endpoint: 'http://aliyun-registry-stand-in.internal', authCode: 'stand-in-auth' },
};

export interface StandInCompany {
  missing?: boolean;
  name?: string;
  repDiffers?: boolean;
  status?: string;
}
export type StandInMode = 'down' | 'hang' | 'throttled' | null;

const book = new Map<string, StandInCompany>();
const modes = new Map<RegistryProviderName, StandInMode>();
/** What each stand-in received (signature problems included), for tests; never the legal representative's data. */
export const standInCalls: { provider: RegistryProviderName; action: string; code: string; withRep: boolean; problems: string[] }[] = [];

export function setStandInCompany(code: string, entry: StandInCompany | null) {
  if (entry) book.set(code, entry);
  else book.delete(code);
}
export function setStandInMode(provider: RegistryProviderName, mode: StandInMode) {
  modes.set(provider, mode);
}
export function resetStandIn() {
  book.clear();
  modes.clear();
  standInCalls.length = 0;
}

interface Asked {
  name: string;
  code: string;
  withRep: boolean;
}

const answer = (status: number, body: unknown): TextAnswer => ({ status, headers: new Headers({ 'content-type': 'application/json' }), text: typeof body === 'string' ? body : JSON.stringify(body) });

function lookUp(asked: Asked) {
  const entry = book.get(asked.code) ?? {};
  const exists = !entry.missing && checkUscc(asked.code).ok;
  return {
    exists,
    nameDiffers: entry.name !== undefined && entry.name !== asked.name,
    repDiffers: asked.withRep && Boolean(entry.repDiffers),
    status: entry.status ?? '存续',
  };
}

async function tencent(url: URL, init: RequestInit): Promise<TextAnswer> {
  const headers = new Headers(init.headers);
  const body = String(init.body ?? '');
  const keys = STAND_IN_KEYS.tencent;
  const expected = await signTencentTc3(
    { method: 'POST', url: url.toString(), headers: { 'content-type': headers.get('content-type')!, host: url.host }, body },
    { secretId: keys.secretId, secretKey: keys.secretKey, service: 'ocr', at: Number(headers.get('x-tc-timestamp')) * 1000 },
  );
  const sent = JSON.parse(body) as { EnterpriseName?: string; EnterpriseMark?: string; RealName?: string; IdCard?: string };
  const asked = { name: sent.EnterpriseName ?? '', code: sent.EnterpriseMark ?? '', withRep: Boolean(sent.RealName && sent.IdCard) };
  const problems = [headers.get('authorization') === expected ? '' : 'signature', headers.get('x-tc-action') === TENCENT_REGISTRY_ACTION && headers.get('x-tc-version') === TENCENT_REGISTRY_VERSION ? '' : 'action'].filter(Boolean);
  standInCalls.push({ provider: 'tencent', action: headers.get('x-tc-action') ?? '', code: asked.code, withRep: asked.withRep, problems });
  if (problems.length) return answer(200, { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: problems.join(', ') } } });
  const mode = modes.get('tencent');
  if (mode === 'down') return answer(503, 'Service Unavailable');
  if (mode === 'throttled') return answer(200, { Response: { Error: { Code: 'RequestLimitExceeded' } } });
  const found = lookUp(asked);
  if (!found.exists) return answer(200, { Response: { State: 3, RequestId: 'stand-in' } });
  const detail = { EnterpriseNameCode: found.nameDiffers ? 1 : 0, EnterpriseMarkCode: 0, RealNameCode: found.repDiffers ? 1 : 0, IdCardCode: found.repDiffers ? 1 : 0 };
  const differs = found.nameDiffers || found.repDiffers;
  return answer(200, { Response: { State: differs ? 2 : 1, Detail: detail, EnterpriseStatus: found.status, RequestId: 'stand-in' } });
}

async function aliyun(url: URL, init: RequestInit): Promise<TextAnswer> {
  const headers = new Headers(init.headers);
  const keys = STAND_IN_KEYS.aliyun;
  const action = headers.get('x-acs-action') ?? '';
  const expected = await signAliyunAcs3(
    { method: 'POST', url: url.toString(), headers: { host: url.host, 'x-acs-action': action, 'x-acs-version': headers.get('x-acs-version') ?? '' }, body: '' },
    { accessKeyId: keys.accessKeyId, accessKeySecret: keys.accessKeySecret, at: Date.parse(headers.get('x-acs-date') ?? ''), nonce: headers.get('x-acs-signature-nonce') ?? '' },
  );
  const q = url.searchParams;
  const asked = { name: q.get('EpCertName') ?? '', code: q.get('EpCertNo') ?? '', withRep: Boolean(q.get('LegalPersonCertName') && q.get('LegalPersonCertNo')) };
  const rightAction = asked.withRep ? action === 'CompanyFourElementsVerification' : action === 'CompanyTwoElementsVerification';
  const problems = [
    headers.get('authorization') === expected.authorization ? '' : 'signature',
    rightAction && headers.get('x-acs-version') === ALIYUN_REGISTRY_VERSION ? '' : 'action',
    q.get('AuthCode') === keys.authCode ? '' : 'auth code',
  ].filter(Boolean);
  standInCalls.push({ provider: 'aliyun', action, code: asked.code, withRep: asked.withRep, problems });
  if (problems.length) return answer(400, { Code: 'SignatureDoesNotMatch', Message: problems.join(', ') });
  const mode = modes.get('aliyun');
  if (mode === 'down') return answer(503, 'Service Unavailable');
  if (mode === 'throttled') return answer(200, { Code: 'Throttling.User', Message: 'Request was denied due to user flow control.' });
  const found = lookUp(asked);
  if (!found.exists) return answer(200, { Code: 'OK', Data: { VerifyResult: 'false', ReasonCode: 3 } });
  const inconsistent = [...(found.nameDiffers ? ['EpCertName'] : []), ...(found.repDiffers ? ['LegalPersonCertName', 'LegalPersonCertNo'] : [])];
  const operating = found.status === '存续' || found.status === '在业';
  const reason = inconsistent.length ? 1 : operating ? 0 : 2;
  return answer(200, { Code: 'OK', Data: { VerifyResult: String(reason === 0), ReasonCode: reason, InconsistentData: inconsistent, DetailInfo: { enterpriseStatus: found.status } } });
}

/** The stand-in as a Send: the provider by the request's host, within the same time limit as a network call. */
export const standInSend: Send = (url, init, timeoutMs) => {
  const target = new URL(url);
  const provider: RegistryProviderName = target.origin === STAND_IN_KEYS.tencent.endpoint ? 'tencent' : 'aliyun';
  return new Promise<TextAnswer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RegistryFailure('unavailable', `timeout: no answer within ${timeoutMs} ms`)), timeoutMs);
    // A hanging provider never answers: only the timer settles the call.
    if (modes.get(provider) === 'hang') return;
    (provider === 'tencent' ? tencent(target, init) : aliyun(target, init)).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
};
