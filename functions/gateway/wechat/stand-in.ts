import { Hono, type Context } from 'hono';
import { configOf } from '../../config';
import { now } from '../../contract';
import type { EdgeBindings } from '../../env';
import { sha256Hex } from '../identity/passwords';
import { randomToken } from '../identity/tokens';
import {
  setStandInFault,
  standInFault,
  standInGranted,
  standInIssueCode,
  standInIssueToken,
  standInToken,
  standInUseCode,
} from './db';

/**
 * The local stand-in of WeChat and WeCom (DEV_OUTBOX "true" only; the startup check refuses it in a deployment),
 * as the outbox stands in for the SMS providers. It follows their documented requests and answers:
 * - `/connect/qrconnect`, `/connect/oauth2/authorize` and `/wwlogin/sso/login` show a page that plays
 *   "scan and confirm": a person name (who scanned) and a Confirm button, which returns to `redirect_uri`
 *   with `code` and `state`, as WeChat does; the redirect must go to one of the site's configured origins;
 * - `/sns/oauth2/access_token`, `/sns/userinfo`, `/cgi-bin/gettoken` and `/cgi-bin/auth/getuserinfo` answer
 *   in WeChat's shapes, with its error codes: 40029 an invalid code, 40163 a used code (WeCom: 40029),
 *   42001 an expired access token, 40013 a wrong app id, 40125 (WeCom 40001) a wrong secret, 48001 the profile
 *   asked with an snsapi_base token;
 * - a `unionid` is given only where the Open Platform binding gives one: with snsapi_login and
 *   snsapi_userinfo, and with snsapi_base once the person allowed the profile to that Official Account;
 * - WeCom: a person whose name starts with "outsider" is not a member (an openid instead of a userid);
 * - POST /fault `{ mode: "slow" | "sluggish" | "down" | null }` makes every API call answer after WECHAT_TIMEOUT_MS,
 *   after 60% of it (each call in time, a sign-in's two or more calls not), or 503.
 * Codes live 5 minutes and access tokens 2 hours, on the gateway's clock.
 */

/** The stand-in's apps (used when the ids are not configured); the secrets are public, as the stand-in is. */
export const STAND_IN_APPS = {
  qr: { appId: 'wx_stand_in_website', secret: 'stand-in-website-secret', agentId: undefined },
  mp: { appId: 'wx_stand_in_official', secret: 'stand-in-official-secret', agentId: undefined },
  wecom: { appId: 'ww_stand_in_corp', secret: 'stand-in-wecom-secret', agentId: '1000002' },
} as const;

/** The origin of in-isolate calls (provider.ts); never on the network. */
export const STAND_IN_ORIGIN = 'http://wechat-stand-in.internal';
/** In-isolate calls carry the gateway's clock (a function test's fake clock reaches the stand-in too). */
export const STAND_IN_CLOCK_HEADER = 'x-stand-in-now';

const CODE_LIFETIME_MS = 5 * 60_000;
const TOKEN_LIFETIME_S = 7200;

type StandInEnv = EdgeBindings;

const clock = (c: Context<StandInEnv>) => Number(c.req.header(STAND_IN_CLOCK_HEADER)) || now(c);
const hashed = async (prefix: string, value: string, length = 28) => prefix + (await sha256Hex(value)).slice(0, length);
const openidOf = (appId: string, person: string) => hashed('o', `${appId}|${person}`);
const unionidOf = (person: string) => hashed('u', `open-platform|${person}`);
const wechatError = (c: Context, errcode: number, errmsg: string) => c.json({ errcode, errmsg });

/** The secrets the stand-in accepts: configured ids keep the stand-in's secrets when their own are unset. */
function appSecrets(env: object): Record<string, string> {
  const config = configOf(env);
  return {
    [config.wechatAppId ?? STAND_IN_APPS.qr.appId]: STAND_IN_APPS.qr.secret,
    [config.wechatMpAppId ?? STAND_IN_APPS.mp.appId]: STAND_IN_APPS.mp.secret,
    [config.wecomCorpId ?? STAND_IN_APPS.wecom.appId]: STAND_IN_APPS.wecom.secret,
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The "scan and confirm" page: what the person's phone would do after scanning. */
function scanPage(c: Context<StandInEnv>, kind: 'qr' | 'mp' | 'wecom', fields: Record<string, string>) {
  const zh = (c.req.header('language') ?? 'zh') === 'zh';
  const title = kind === 'wecom' ? (zh ? '企业微信登录（本地模拟）' : 'WeCom sign-in (local stand-in)') : zh ? '微信登录（本地模拟）' : 'WeChat sign-in (local stand-in)';
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const what =
    kind === 'qr'
      ? zh
        ? '请用微信扫描二维码，然后在手机上确认登录。'
        : 'Scan the QR code with WeChat, then confirm on your phone.'
      : kind === 'mp'
        ? zh
          ? '该网页申请获取你的微信身份。'
          : 'This page asks for your WeChat identity.'
        : zh
          ? '请用企业微信扫码并确认。'
          : 'Scan with WeCom and confirm.';
  const html = `<!doctype html><html lang="${zh ? 'zh' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${what}</p>
${kind === 'qr' || kind === 'wecom' ? `<svg role="img" aria-label="${zh ? '二维码' : 'QR code'}" width="160" height="160" viewBox="0 0 8 8"><path d="M0 0h3v3H0zM5 0h3v3H5zM0 5h3v3H0zM4 4h1v1H4zM6 5h1v2H6zM4 6h1v2H4z"/></svg>` : ''}
<form method="post" action="/api/dev/wechat/confirm">${hidden}
<p><label for="person">${zh ? '扫码的人（模拟）' : 'Who scans (stand-in)'}</label> <input id="person" name="person" required maxlength="64" pattern="[A-Za-z0-9._-]{1,64}" autocomplete="off"></p>
<p><button type="submit" name="answer" value="confirm">${zh ? '确认登录' : 'Confirm'}</button> <button type="submit" name="answer" value="cancel" formnovalidate>${zh ? '取消' : 'Cancel'}</button></p>
</form></main></body></html>`;
  return c.html(html, 200, { 'Cache-Control': 'no-store' });
}

/** WeChat checks `redirect_uri` against the app's registered domain; the stand-in against the site's origins. */
function allowedRedirect(c: Context<StandInEnv>, redirectUri: string | undefined): URL | null {
  if (!redirectUri || !URL.canParse(redirectUri)) return null;
  const url = new URL(redirectUri);
  return configOf(c.env).siteOrigins.includes(url.origin) ? url : null;
}

function scan(kind: 'qr' | 'mp' | 'wecom') {
  return (c: Context<StandInEnv>) => {
    const q = c.req.query();
    const appId = kind === 'wecom' ? q.appid : q.appid;
    const scope = kind === 'wecom' ? 'wecom' : (q.scope ?? '');
    const validScope = kind === 'qr' ? scope === 'snsapi_login' : kind === 'mp' ? ['snsapi_base', 'snsapi_userinfo'].includes(scope) : q.login_type === 'CorpApp';
    if (!appId || !(appId in appSecrets(c.env)) || !validScope || !allowedRedirect(c, q.redirect_uri)) {
      return c.text('Parameter error (stand-in: appid, scope or redirect_uri is not valid)', 400);
    }
    return scanPage(c, kind, { kind, appid: appId, scope, redirect_uri: q.redirect_uri!, state: q.state ?? '' });
  };
}

async function faulty(c: Context<StandInEnv>): Promise<Response | null> {
  const fault = await standInFault(c.env.DB);
  if (fault === 'down') return c.text('Service Unavailable', 503);
  if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, configOf(c.env).wechatTimeout + 500));
  if (fault === 'sluggish') await new Promise((resolve) => setTimeout(resolve, configOf(c.env).wechatTimeout * 0.6));
  return null;
}

// /* @__PURE__ */: nothing mounts it in a deployed build (gateway/app.ts, PORTAL_DEPLOYED_BUILD), so esbuild drops it.
export const standIn = /* @__PURE__ */ (() =>
  new Hono<StandInEnv>()
    .get('/connect/qrconnect', scan('qr'))
    .get('/connect/oauth2/authorize', scan('mp'))
    .get('/wwlogin/sso/login', scan('wecom'))
    .post('/confirm', async (c) => {
      const form = await c.req.parseBody();
      const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
      const target = allowedRedirect(c, field('redirect_uri'));
      const appId = field('appid');
      if (!target || !(appId in appSecrets(c.env))) return c.text('Parameter error', 400);
      if (field('answer') === 'confirm') {
        const person = field('person');
        if (!/^[A-Za-z0-9._-]{1,64}$/.test(person)) return c.text('Parameter error: person', 400);
        const code = randomToken().slice(0, 32);
        await standInIssueCode(c.env.DB, { code, appId, person, scope: field('scope'), now: now(c) });
        target.searchParams.set('code', code);
      }
      // A cancel returns without a code, as WeChat's "deny" does in its web authorization.
      target.searchParams.set('state', field('state'));
      return c.redirect(target.toString(), 302);
    })
    .post('/fault', async (c) => {
      const { mode } = await c.req.json<{ mode: 'slow' | 'sluggish' | 'down' | null }>();
      await setStandInFault(c.env.DB, mode === 'slow' || mode === 'sluggish' || mode === 'down' ? mode : null);
      return c.json({ code: '0', message: 'ok', data: { mode } });
    })
    .get('/sns/oauth2/access_token', async (c) => {
      const fault = await faulty(c);
      if (fault) return fault;
      const { appid = '', secret = '', code = '', grant_type: grant } = c.req.query();
      const secrets = appSecrets(c.env);
      if (!(appid in secrets)) return wechatError(c, 40013, 'invalid appid');
      if (secrets[appid] !== secret) return wechatError(c, 40125, 'invalid appsecret');
      if (grant !== 'authorization_code') return wechatError(c, 40002, 'invalid grant_type');
      const used = await standInUseCode(c.env.DB, code, appid, clock(c), CODE_LIFETIME_MS);
      if (!used.ok) return used.reason === 'used' ? wechatError(c, 40163, 'code been used') : wechatError(c, 40029, 'invalid code');
      const token = randomToken();
      await standInIssueToken(c.env.DB, { token, appId: appid, person: used.person, scope: used.scope, expiresAt: clock(c) + TOKEN_LIFETIME_S * 1000 });
      const withUnion = used.scope !== 'snsapi_base' || (await standInGranted(c.env.DB, appid, used.person));
      return c.json({
        access_token: token,
        expires_in: TOKEN_LIFETIME_S,
        refresh_token: randomToken(),
        openid: await openidOf(appid, used.person),
        scope: used.scope,
        ...(withUnion ? { unionid: await unionidOf(used.person) } : {}),
      });
    })
    .get('/sns/userinfo', async (c) => {
      const fault = await faulty(c);
      if (fault) return fault;
      const row = await standInToken(c.env.DB, c.req.query('access_token') ?? '');
      if (!row || row.app_id === STAND_IN_APPS.wecom.appId) return wechatError(c, 40001, 'invalid credential, access_token is invalid or not latest');
      if (row.expires_at <= clock(c)) return wechatError(c, 42001, 'access_token expired');
      if (row.scope === 'snsapi_base') return wechatError(c, 48001, 'api unauthorized');
      const openid = await openidOf(row.app_id, row.person);
      if (c.req.query('openid') !== openid) return wechatError(c, 40003, 'invalid openid');
      return c.json({ openid, nickname: row.person, sex: 0, province: '', city: '', country: '', headimgurl: '', privilege: [], unionid: await unionidOf(row.person) });
    })
    .get('/cgi-bin/gettoken', async (c) => {
      const fault = await faulty(c);
      if (fault) return fault;
      const { corpid = '', corpsecret = '' } = c.req.query();
      const secrets = appSecrets(c.env);
      if (!(corpid in secrets)) return wechatError(c, 40013, 'invalid corpid');
      if (secrets[corpid] !== corpsecret) return wechatError(c, 40001, 'invalid secret');
      const token = randomToken();
      await standInIssueToken(c.env.DB, { token, appId: corpid, person: '', scope: 'corp', expiresAt: clock(c) + TOKEN_LIFETIME_S * 1000 });
      return c.json({ errcode: 0, errmsg: 'ok', access_token: token, expires_in: TOKEN_LIFETIME_S });
    })
    .get('/cgi-bin/auth/getuserinfo', async (c) => {
      const fault = await faulty(c);
      if (fault) return fault;
      const row = await standInToken(c.env.DB, c.req.query('access_token') ?? '');
      if (!row || row.scope !== 'corp') return wechatError(c, 40014, 'invalid access_token');
      if (row.expires_at <= clock(c)) return wechatError(c, 42001, 'access_token expired');
      const used = await standInUseCode(c.env.DB, c.req.query('code') ?? '', row.app_id, clock(c), CODE_LIFETIME_MS);
      if (!used.ok) return wechatError(c, 40029, 'invalid code');
      if (used.person.startsWith('outsider')) {
        return c.json({ errcode: 0, errmsg: 'ok', openid: await openidOf(row.app_id, used.person), external_userid: '' });
      }
      return c.json({ errcode: 0, errmsg: 'ok', userid: used.person, user_ticket: randomToken() });
    })
)();
