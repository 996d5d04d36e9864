import type { Config } from '../../config';
import type { WorkerEnv } from '../../env';
import { fetchText, OutboundFailure, type TextAnswer } from '../../outbound';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import type { Method } from './db';
import type { Provider } from '../social/db';
import { STAND_IN_APPS, STAND_IN_CLOCK_HEADER, STAND_IN_ORIGIN, standIn } from './stand-in';

/**
 * The calls to WeChat and WeCom, as their documentation gives them:
 * - website QR login (Open Platform, `snsapi_login`): `open.weixin.qq.com/connect/qrconnect`, then
 *   `api.weixin.qq.com/sns/oauth2/access_token` and `sns/userinfo`;
 * - the Official Account's web authorization inside WeChat (`snsapi_base`, `snsapi_userinfo`):
 *   `open.weixin.qq.com/connect/oauth2/authorize`, then the same two calls with the Official Account's id;
 * - WeCom web login: `login.work.weixin.qq.com/wwlogin/sso/login`, then `qyapi.weixin.qq.com/cgi-bin/gettoken`
 *   and `cgi-bin/auth/getuserinfo`.
 * Every call has WECHAT_TIMEOUT_MS: no answer is WX0005, a failure or an unexpected answer WX0006 (logged with
 * WeChat's errcode). An invalid code (40029) is WX0004 and a used one (40163) WX0003. In a local run a method
 * without its secret goes to the stand-in (stand-in.ts), called in this isolate with the same time limit.
 */

export interface App {
  appId: string;
  secret: string;
  /** WeCom's agent id. */
  agentId?: string;
  standIn: boolean;
}

/** The app of each method, or null when it is off: its ids configured, or the stand-in's in a local run. */
export function appOf(config: Config, method: Method): App | null {
  const [id, secret, agentId] =
    method === 'qr'
      ? [config.wechatAppId, config.wechatAppSecret]
      : method === 'mp'
        ? [config.wechatMpAppId, config.wechatMpAppSecret]
        : [config.wecomCorpId, config.wecomSecret, config.wecomAgentId];
  if (id && secret && (method !== 'wecom' || agentId)) return { appId: id, secret, agentId, standIn: false };
  // The stand-in exists in local runs only (gateway/app.ts, PORTAL_DEPLOYED_BUILD).
  if (typeof PORTAL_DEPLOYED_BUILD === 'undefined' && config.wechatStandIn) {
    const standInApp = STAND_IN_APPS[method];
    return { appId: id ?? standInApp.appId, secret: standInApp.secret, agentId: agentId ?? standInApp.agentId, standIn: true };
  }
  return null;
}

export const providerOf = (method: Method): Provider => (method === 'wecom' ? 'wecom' : 'wechat');

export type Scope = 'snsapi_login' | 'snsapi_base' | 'snsapi_userinfo';

/** Where the browser goes to scan (or, inside WeChat, to allow): WeChat's page, or the stand-in's under /api/dev. */
export function authorizeUrl(config: Config, method: Method, app: App, options: { state: string; redirectUri: string; scope: Scope }): string {
  const base = (real: string) => (typeof PORTAL_DEPLOYED_BUILD === 'undefined' && app.standIn ? '/api/dev/wechat' : real);
  if (method === 'wecom') {
    const query = new URLSearchParams({ login_type: 'CorpApp', appid: app.appId, agentid: app.agentId ?? '', redirect_uri: options.redirectUri, state: options.state });
    return `${base(config.wecomLoginUrl)}/wwlogin/sso/login?${query}`;
  }
  const query = new URLSearchParams({ appid: app.appId, redirect_uri: options.redirectUri, response_type: 'code', scope: options.scope, state: options.state });
  const page = method === 'qr' ? 'connect/qrconnect' : 'connect/oauth2/authorize';
  return `${base(config.wechatOpenUrl)}/${page}?${query}#wechat_redirect`;
}

/** Who scanned: the subject that identifies them across the portal's apps (null: not given by snsapi_base). */
export interface WechatIdentity {
  provider: Provider;
  subject: string | null;
  /** The Official Account openid (method mp). */
  openid: string | null;
  nickname: string;
}

type Json = Record<string, unknown>;

/**
 * One sign-in's calls (2 to 4) share one time limit: WECHAT_TIMEOUT_MS, and never more than 80% of
 * GATEWAY_TIMEOUT_MS, so the gateway answers WX0005 before the edge gives up on it (GW0504). `until` is its end on
 * the wall clock (not the gateway's clock, which tests move): the person waits at most that.
 */
type Deadline = { until: number };
export const signInTimeLimit = (config: Config) => Math.min(config.wechatTimeout, Math.floor(config.gatewayTimeout * 0.8));
const timeLeft = (deadline: Deadline) => deadline.until - Date.now();

async function call(env: WorkerEnv, config: Config, app: App, base: string, path: string, query: Record<string, string>, at: number, deadline: Deadline): Promise<Json> {
  const url = `${typeof PORTAL_DEPLOYED_BUILD === 'undefined' && app.standIn ? STAND_IN_ORIGIN : base}${path}?${new URLSearchParams(query)}`;
  let answer: TextAnswer;
  try {
    const left = timeLeft(deadline);
    if (left <= 0) throw new OutboundFailure('timeout', `the sign-in's ${config.wechatTimeout} ms are spent`);
    answer = typeof PORTAL_DEPLOYED_BUILD === 'undefined' && app.standIn ? await standInCall(env, url, left, at) : await fetchText(url, { method: 'GET' }, left);
  } catch (error) {
    if (!(error instanceof OutboundFailure)) throw error;
    console.error(JSON.stringify({ event: 'wechat_unavailable', path, reason: error.reason }));
    throw new GatewayError(error.reason === 'timeout' ? ERR.WECHAT_TIMEOUT : ERR.WECHAT_UNAVAILABLE);
  }
  let body: unknown = null;
  try {
    body = JSON.parse(answer.text);
  } catch {
    // Not JSON: handled below as an unexpected answer.
  }
  if (answer.status !== 200 || typeof body !== 'object' || body === null) {
    console.error(JSON.stringify({ event: 'wechat_failed', path, status: answer.status }));
    throw new GatewayError(ERR.WECHAT_UNAVAILABLE);
  }
  return body as Json;
}

/** WeChat's own refusals, by errcode; anything else is WX0006 and logged (never with the code or a token). */
function refusal(path: string, body: Json): GatewayError {
  const errcode = Number(body.errcode);
  if (errcode === 40029) return new GatewayError(ERR.WECHAT_CODE_INVALID);
  if (errcode === 40163) return new GatewayError(ERR.WECHAT_CODE_USED);
  console.error(JSON.stringify({ event: 'wechat_refused', path, errcode, errmsg: String(body.errmsg ?? '') }));
  return new GatewayError(ERR.WECHAT_UNAVAILABLE);
}

const failed = (body: Json) => body.errcode !== undefined && Number(body.errcode) !== 0;
const str = (value: unknown) => (typeof value === 'string' ? value : null);

/** The stand-in answers in this isolate, within the same time limit as a real call. */
async function standInCall(env: WorkerEnv, url: string, timeoutMs: number, at: number): Promise<TextAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OutboundFailure('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const response = await Promise.race([standIn.request(url, { method: 'GET', headers: { [STAND_IN_CLOCK_HEADER]: String(at) } }, env), late]);
    return { status: response.status, headers: response.headers, text: await response.text() };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** WeCom's access token per corp and secret, kept in the isolate until shortly before it ends. */
const wecomTokens = new Map<string, { token: string; until: number }>();

async function wecomToken(env: WorkerEnv, config: Config, app: App, at: number, fresh: boolean, deadline: Deadline): Promise<string> {
  const key = `${app.appId}:${app.standIn}`;
  const kept = wecomTokens.get(key);
  if (kept && !fresh && kept.until > at) return kept.token;
  const body = await call(env, config, app, config.wecomApiUrl, '/cgi-bin/gettoken', { corpid: app.appId, corpsecret: app.secret }, at, deadline);
  const token = str(body.access_token);
  if (failed(body) || !token) throw refusal('/cgi-bin/gettoken', body);
  wecomTokens.set(key, { token, until: at + (Number(body.expires_in) || 7200) * 1000 - 300_000 });
  return token;
}

/** Exchanges the authorization code of a callback for the person it names, within one WECHAT_TIMEOUT_MS for all its calls. */
export async function identify(env: WorkerEnv, config: Config, method: Method, app: App, code: string, at: number): Promise<WechatIdentity> {
  const deadline: Deadline = { until: Date.now() + signInTimeLimit(config) };
  if (method === 'wecom') {
    // An access token WeCom says expired (42001) is fetched again, once.
    for (const fresh of [false, true]) {
      const token = await wecomToken(env, config, app, at, fresh, deadline);
      const body = await call(env, config, app, config.wecomApiUrl, '/cgi-bin/auth/getuserinfo', { access_token: token, code }, at, deadline);
      if (Number(body.errcode) === 42001 && !fresh) continue;
      if (failed(body)) throw refusal('/cgi-bin/auth/getuserinfo', body);
      const userId = str(body.userid);
      // Someone outside the company (WeCom answers an openid instead of a userid).
      if (!userId) throw new GatewayError(ERR.WECOM_NOT_MEMBER);
      return { provider: 'wecom', subject: `${app.appId}:${userId}`, openid: null, nickname: '' };
    }
  }
  const token = await call(env, config, app, config.wechatApiUrl, '/sns/oauth2/access_token', { appid: app.appId, secret: app.secret, code, grant_type: 'authorization_code' }, at, deadline);
  const accessToken = str(token.access_token);
  const openid = str(token.openid);
  if (failed(token) || !accessToken || !openid) throw refusal('/sns/oauth2/access_token', token);
  const scope = str(token.scope) ?? '';
  // snsapi_base gives the openid alone (a unionid only when the person already allowed the profile).
  if (scope.includes('snsapi_base')) return { provider: 'wechat', subject: str(token.unionid), openid: method === 'mp' ? openid : null, nickname: '' };
  const info = await call(env, config, app, config.wechatApiUrl, '/sns/userinfo', { access_token: accessToken, openid, lang: 'zh_CN' }, at, deadline);
  if (failed(info)) throw refusal('/sns/userinfo', info);
  const unionid = str(info.unionid) ?? str(token.unionid);
  if (!unionid) {
    // The app is not bound to the portal's Open Platform account: WeChat gives no unionid, so nobody can be recognised.
    console.error(JSON.stringify({ event: 'wechat_no_unionid', method, appId: app.appId }));
    throw new GatewayError(ERR.WECHAT_UNAVAILABLE);
  }
  return { provider: 'wechat', subject: unionid, openid: method === 'mp' ? openid : null, nickname: (str(info.nickname) ?? '').slice(0, 64) };
}
