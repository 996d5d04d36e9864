import type { MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import './zod-english';
import { langs, type LangDefaults } from '../src/lib/lang';
import { decodeBase64 } from '../src/lib/base64';
import type { RedirectAllowance } from './edge/redirect-target';

/**
 * The Worker's configuration: its vars (wrangler.toml) and secrets (`wrangler secret put`), parsed once per
 * bindings object into typed fields. Nothing else in functions/ reads a var or secret from the env: handlers
 * read `c.get('config')` (set by `withConfig`), services that are handed the bindings call `configOf(env)`; both
 * get the same cached object.
 *
 * A malformed value is an error naming the variable (ConfigError), in every environment: a typo such as
 * REGION_REDIRECT "ture" must not quietly mean "off".
 *
 * Adding a setting is one line in `settings` below: the wrangler name and a zod schema that turns its text
 * (undefined when unset) into the typed value.
 */

/** Unset, empty and blank all mean "not configured": wrangler.toml writes an unused var as "". */
const blankAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
// zod/mini has no preprocess: a transform piped into the schema is what classic zod's preprocess is.
const optional = <T extends z.ZodMiniType>(schema: T) => z.pipe(z.transform(blankAsUnset), z.optional(schema));
/** Unset reads as `fallback`, which goes through the same schema as a configured value. */
const withDefault = <T extends z.ZodMiniType>(schema: T, fallback: string) =>
  z.pipe(
    z.transform((value): unknown => blankAsUnset(value) ?? fallback),
    schema,
  );

/** "true" or "false"; anything else is refused rather than read as false. */
const flag = withDefault(
  z.pipe(
    z.enum(['true', 'false'], { error: 'must be "true" or "false"' }),
    z.transform((value) => value === 'true'),
  ),
  'false',
);
const text = z.string().check(z.trim());
/** A whole number from min to max, written in decimal digits. */
const wholeNumber = (min: number, max: number) =>
  z
    .pipe(text.check(z.regex(/^\d{1,15}$/, `must be a whole number from ${min} to ${max}`)), z.transform(Number))
    .check(z.refine((value) => value >= min && value <= max, `must be a whole number from ${min} to ${max}`));
/** An absolute http(s) URL, kept as written. */
const httpUrl = text.check(z.refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL'));
/** An http(s) origin (`https://portal.example.com`, no path), kept as its canonical origin. */
const origin = z.pipe(
  text.check(z.refine((value) => /^https?:\/\/[^/?#@\s]+\/?$/i.test(value) && URL.canParse(value), 'must be an http(s) origin without a path')),
  z.transform((value: string) => new URL(value).origin),
);
/** A path on this site (`/user_center`) or an absolute http(s) URL. */
const pathOrUrl = text.check(
  z.refine(
    (value) => (value.startsWith('/') && !value.startsWith('//')) || (/^https?:\/\//i.test(value) && URL.canParse(value)),
    'must be a path starting with "/" or an http(s) URL',
  ),
);
/** Comma-separated items, each parsed by `item`; blanks between commas are dropped. */
// (zod/mini's transform has no addIssue: a transform's issues go straight into the parse's list, ctx.issues.)
const commaList = (item: z.ZodMiniType<string>) =>
  z.pipe(
    text,
    z.transform((value: string, ctx) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => {
          const checked = item.safeParse(part);
          if (!checked.success) ctx.issues.push({ code: 'custom', message: `"${part}" ${checked.error.issues[0]?.message}`, input: value });
          return checked.data ?? part;
        }),
    ),
  );
/** "+86=600,*=20": a whole number per calling code, and under "*" the number for every code not named. */
const callingCodeCaps = z
  .pipe(
    commaList(text.check(z.regex(/^(\+\d{1,4}|\*)=\d{1,9}$/, 'must be "+CODE=N" or "*=N"'))),
    z.transform((entries: string[]) => Object.fromEntries(entries.map((entry) => [entry.split('=')[0]!, Number(entry.split('=')[1])]))),
  )
  .check(z.refine((caps) => '*' in caps, 'needs a "*=N" entry for the calling codes it does not name'));
/** "zh=VALUE,en=VALUE": a value per language (SMS sign names and template ids). */
const perLang = z.pipe(
  commaList(text.check(z.regex(/^(zh|en)=.+$/, 'must be "zh=VALUE" or "en=VALUE"'))),
  z.transform(
    (entries: string[]) =>
      Object.fromEntries(entries.map((entry) => [entry.slice(0, 2), entry.slice(3).trim()])) as Partial<Record<(typeof langs)[number], string>>,
  ),
);
/** Milliseconds to wait for a service outside the Worker before giving up on it. */
const timeoutMs = (fallback: string) => withDefault(wholeNumber(100, 60_000), fallback);
/** Where messages of a channel go: the dev outbox, the signed webhook, or a provider's API (delivery/). */
export const SMS_PROVIDERS = ['outbox', 'webhook', 'aliyun', 'tencent', 'twilio'] as const;
export const EMAIL_PROVIDERS = ['outbox', 'webhook', 'ses'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];
/** The business-registry providers (registry/, issue 42). */
export const REGISTRY_PROVIDER_NAMES = ['tencent', 'aliyun'] as const;
export type EmailProvider = (typeof EMAIL_PROVIDERS)[number];
/**
 * An ordered list of providers ("aliyun,tencent"): a send goes to the first and, when it fails, times out or is
 * throttled, on to the next. Each provider once; the outbox only on its own (it never fails over).
 */
const providerList = <T extends string>(names: readonly [T, ...T[]]) =>
  z.pipe(
    commaList(z.enum(names) as unknown as z.ZodMiniType<string>).check(
      z.refine((list) => list.length > 0, 'must name at least one provider'),
      z.refine((list) => new Set(list).size === list.length, 'must name each provider once'),
      z.refine((list) => !list.includes('outbox') || list.length === 1, '"outbox" cannot be part of a list'),
    ),
    z.transform((list: string[]) => list as T[]),
  );

/**
 * "+852=twilio,tencent;+65=twilio": an ordered provider list for each named calling code, before
 * SMS_PROVIDER / SMS_INTERNATIONAL_PROVIDER (groups apart by ";", providers by ",").
 */
const smsRoutes = z.pipe(
  text,
  z.transform((value: string, ctx) => {
    const routes: Record<string, SmsProvider[]> = {};
    for (const group of value.split(';').map((part) => part.trim()).filter(Boolean)) {
      const match = /^(\+\d{1,4})\s*=\s*(.+)$/.exec(group);
      const list = match ? providerList(SMS_PROVIDERS).safeParse(match[2]) : null;
      if (!match || !list?.success) ctx.issues.push({ code: 'custom', message: `"${group}" must be "+CODE=provider,provider" with each provider once`, input: value });
      else if (match[1]! in routes) ctx.issues.push({ code: 'custom', message: `"${match[1]}" is named twice`, input: value });
      else routes[match[1]!] = list.data;
    }
    return routes;
  }),
);

/** Base64 (standard or url-safe) of exactly 32 bytes: an AES-256 key. */
const key32 = text.check(z.refine((value) => decodeBase64(value)?.length === 32, 'must be base64 of exactly 32 bytes'));

interface Setting<T extends z.ZodMiniType = z.ZodMiniType> {
  /** The var or secret name in wrangler.toml and `wrangler secret put`. */
  name: string;
  schema: T;
  /** A secret: its value never appears in an error. */
  secret?: boolean;
  /** A deployed Worker (ENVIRONMENT set) refuses to serve without it (see edge/startup-check.ts). */
  requiredWhenDeployed?: boolean;
}
const variable = <T extends z.ZodMiniType>(name: string, schema: T): Setting<T> => ({ name, schema });
const secret = <T extends z.ZodMiniType>(name: string, schema: T, options: { requiredWhenDeployed?: boolean } = {}): Setting<T> => ({
  name,
  schema,
  secret: true,
  ...options,
});

const settings = {
  /** Set only by the named environments of wrangler.toml; absent in a local run. */
  environment: variable('ENVIRONMENT', optional(z.enum(['staging', 'production']))),
  /** Language for hosts that match none of zhHostSuffixes. */
  defaultLang: variable('DEFAULT_LANG', withDefault(z.enum(langs), 'en')),
  zhHostSuffixes: variable('ZH_HOST_SUFFIXES', withDefault(commaList(text.check(z.toLowerCase())), '.cn')),
  /** Unset: /api is answered by the embedded gateway of this Worker. */
  gatewayUrl: variable('GATEWAY_URL', optional(httpUrl)),
  /**
   * This Worker's own sites as visitors reach them: sign-in links and the cross-site check are built on these,
   * never on the request's Host header (which a client names).
   */
  portalOrigin: variable('PORTAL_ORIGIN', optional(origin)),
  navigatorOrigin: variable('NAVIGATOR_ORIGIN', optional(origin)),
  /**
   * Passkeys (WebAuthn): the relying party id (a host name) and the origins whose pages may use them. Unset: the
   * host and origin of PORTAL_ORIGIN. Never taken from a request's Host or Origin, which a client names.
   */
  passkeyRpId: variable('PASSKEY_RP_ID', optional(text.check(z.toLowerCase(), z.regex(/^[a-z0-9.-]{1,253}$/, 'must be a host name')))),
  passkeyOrigins: variable('PASSKEY_ORIGINS', withDefault(commaList(origin), '')),
  /** A host whose name contains this label serves the partner (navigator) login. */
  navigatorHostLabel: variable('NAVIGATOR_HOST_LABEL', optional(text)),
  /** A local run: read only through the named dev flags of Config below. */
  localRun: variable('DEV_OUTBOX', flag),
  /** The x-debug-country request header stands in for Cloudflare's country (offline it is a placeholder). */
  trustCountryHeader: variable('DEV_TRUST_COUNTRY_HEADER', flag),
  /**
   * The x-test-client-ip request header names the client, so tests and scripts can act as many networks; a
   * deployed Worker refuses to start with it (any client could then reset every per-IP limit).
   */
  trustClientIpHeader: variable('DEV_TRUST_CLIENT_IP_HEADER', flag),
  /** Send visitors between the .cn and .com sites by country. */
  regionRedirect: variable('REGION_REDIRECT', flag),
  siteCn: variable('SITE_CN', optional(httpUrl)),
  siteCom: variable('SITE_COM', optional(httpUrl)),
  redirectAllowlist: variable('REDIRECT_ALLOWLIST', withDefault(commaList(httpUrl), '')),
  /** Default destination of a signed-in visitor (a path is on this site). */
  portalUrl: variable('PORTAL_URL', withDefault(pathOrUrl, '/user_center')),
  zhoushanUrl: variable('ZHOUSHAN_URL', optional(httpUrl)),
  invitationLetterUrl: variable('INVITATION_LETTER_URL', optional(httpUrl)),
  /** This site's name in hand-off blobs. */
  handoffAudience: variable('HANDOFF_AUDIENCE', withDefault(text, 'portal')),
  webAppUrl: variable('WEB_APP_URL', optional(pathOrUrl)),
  webHomeUrl: variable('WEB_HOME_URL', optional(pathOrUrl)),
  webAppAudience: variable('WEB_APP_AUDIENCE', withDefault(text, 'web-app')),
  /**
   * Where a partner (navigator) with no company goes after the partner sign-in (/go/partner_app): the partners'
   * workspace. Default: the portal's own partner landing page, which says what partners do there.
   */
  partnerAppUrl: variable('PARTNER_APP_URL', withDefault(pathOrUrl, '/partner')),
  /** The support contact shown to a person whose account is blocked (and wherever the portal names support). */
  supportPhone: variable('SUPPORT_PHONE', optional(text)),
  supportEmail: variable('SUPPORT_EMAIL', optional(text.check(z.email({ error: 'must be an e-mail address' })))),
  /** Support's hours, per language: `zh=…,en=…`. */
  supportHours: variable('SUPPORT_HOURS', withDefault(perLang, '')),
  /**
   * A session ends after this many seconds without a call (last activity is stored at most once a minute, so
   * it ends up to a minute sooner than the figure says). Default: 7 days, the session cookie's lifetime.
   */
  sessionIdleTimeout: variable('SESSION_IDLE_TIMEOUT', withDefault(wholeNumber(300, 400 * 86_400), '604800')),
  /**
   * A session ends this many seconds after its sign-in, however active. The session cookie is set once at
   * sign-in with this Max-Age, so the browser drops it exactly when the session ends. Default: 604,799 s
   * (7 days less a second, the spec's cookie lifetime).
   */
  sessionAbsoluteTimeout: variable('SESSION_ABSOLUTE_TIMEOUT', withDefault(wholeNumber(300, 400 * 86_400), '604799')),
  /**
   * The new-device challenge (issue 44): a password, hand-off or partner sign-in of a person without two-step, from a
   * device that has not signed in to the account within NEW_DEVICE_DAYS, owes a one-time code to the account's
   * e-mail or phone first (sign-in/service.ts). On unless set to "false" (local runs and the tests switch it off in
   * wrangler.toml and switch it on where they test it).
   */
  newDeviceChallenge: variable('NEW_DEVICE_CHALLENGE', withDefault(flag, 'true')),
  /** The challenge also asks a known device signing in from a country the account never signed in from. */
  newDeviceNewCountry: variable('NEW_DEVICE_NEW_COUNTRY', withDefault(flag, 'true')),
  /** The challenge also asks a known device on a network the account never signed in from, after failed sign-ins in 24 h. */
  newDeviceRiskyNetwork: variable('NEW_DEVICE_RISKY_NETWORK', withDefault(flag, 'true')),
  /** How long a device that signed in stays known without signing in again, in days. */
  newDeviceDays: variable('NEW_DEVICE_DAYS', withDefault(wholeNumber(1, 365), '90')),
  /**
   * The offline breached-password check (issue 44): a new password whose SHA-1 is in the imported Pwned Passwords
   * ranges with at least this count is refused (PW0005).
   */
  pwnedMinCount: variable('PWNED_MIN_COUNT', withDefault(wholeNumber(1, 1_000_000_000), '1')),
  /** When the ranges cannot be read (R2 down): "false" accepts and logs, "true" refuses the new password (PW0006). */
  pwnedFailClosed: variable('PWNED_FAIL_CLOSED', flag),
  /** Digits per one-time code. */
  codeLength: variable('CODE_LENGTH', withDefault(wholeNumber(4, 8), '6')),
  /** Where every channel goes unless SMS_PROVIDER / SMS_INTERNATIONAL_PROVIDER / EMAIL_PROVIDER names another. */
  delivery: variable('DELIVERY', withDefault(z.enum(['outbox', 'webhook']), 'outbox')),
  deliveryWebhookUrl: variable('DELIVERY_WEBHOOK_URL', optional(httpUrl)),
  /** SMS to mainland China numbers (+86), providers in the order they are tried; unset: DELIVERY. */
  smsProvider: variable('SMS_PROVIDER', optional(providerList(SMS_PROVIDERS))),
  /** SMS to every other number, in order; unset: SMS_PROVIDER. */
  smsInternationalProvider: variable('SMS_INTERNATIONAL_PROVIDER', optional(providerList(SMS_PROVIDERS))),
  /** SMS to the calling codes it names, each with its own ordered list (before the two above). */
  smsRoutes: variable('SMS_ROUTES', withDefault(smsRoutes, '')),
  /** E-mail, in order; unset: DELIVERY. */
  emailProvider: variable('EMAIL_PROVIDER', optional(providerList(EMAIL_PROVIDERS))),
  /** Template SMS (Aliyun, Tencent): the sign name and the template ids of the code, new-device, review decision and security-change messages, per language. */
  smsSignNames: variable('SMS_SIGN_NAMES', withDefault(perLang, '')),
  smsCodeTemplates: variable('SMS_CODE_TEMPLATES', withDefault(perLang, '')),
  smsNoticeTemplates: variable('SMS_NOTICE_TEMPLATES', withDefault(perLang, '')),
  smsReviewTemplates: variable('SMS_REVIEW_TEMPLATES', withDefault(perLang, '')),
  smsSecurityTemplates: variable('SMS_SECURITY_TEMPLATES', withDefault(perLang, '')),
  aliyunAccessKeyId: variable('ALIYUN_ACCESS_KEY_ID', optional(text)),
  aliyunSmsEndpoint: variable('ALIYUN_SMS_ENDPOINT', withDefault(httpUrl, 'https://dysmsapi.aliyuncs.com')),
  tencentSecretId: variable('TENCENT_SECRET_ID', optional(text)),
  tencentSmsAppId: variable('TENCENT_SMS_APP_ID', optional(text)),
  tencentSmsRegion: variable('TENCENT_SMS_REGION', withDefault(text, 'ap-guangzhou')),
  tencentSmsEndpoint: variable('TENCENT_SMS_ENDPOINT', withDefault(httpUrl, 'https://sms.tencentcloudapi.com')),
  twilioAccountSid: variable('TWILIO_ACCOUNT_SID', optional(text)),
  /** The sender: a Twilio phone number (+E.164) or a Messaging Service SID (MG…). */
  twilioFrom: variable('TWILIO_FROM', optional(text)),
  twilioApiUrl: variable('TWILIO_API_URL', withDefault(httpUrl, 'https://api.twilio.com')),
  awsAccessKeyId: variable('AWS_ACCESS_KEY_ID', optional(text)),
  sesRegion: variable('SES_REGION', optional(text.check(z.regex(/^[a-z0-9-]{1,32}$/, 'must be an AWS region such as eu-west-1')))),
  /** The verified sender address of SES e-mail. */
  sesFrom: variable('SES_FROM', optional(text)),
  /** Unset: https://email.SES_REGION.amazonaws.com */
  sesEndpoint: variable('SES_ENDPOINT', optional(httpUrl)),
  /**
   * The business-registry check of mainland companies (registry/, issue 42): providers in the order they are tried;
   * unset, no check is made ("not checked"). Each uses the SMS provider's keys of its cloud (TENCENT_SECRET_ID/KEY,
   * ALIYUN_ACCESS_KEY_ID/SECRET); in a local run a provider without its keys is the stand-in (registry/stand-in.ts).
   */
  registryProviders: variable('REGISTRY_PROVIDERS', withDefault(commaList(z.enum(REGISTRY_PROVIDER_NAMES) as unknown as z.ZodMiniType<string>), '')),
  tencentRegistryEndpoint: variable('TENCENT_REGISTRY_ENDPOINT', withDefault(httpUrl, 'https://ocr.tencentcloudapi.com')),
  aliyunRegistryEndpoint: variable('ALIYUN_REGISTRY_ENDPOINT', withDefault(httpUrl, 'https://dytnsapi.aliyuncs.com')),
  /** Aliyun's authorisation code of the enterprise-verification tag (号码百科 console, "my applications"). */
  aliyunRegistryAuthCode: variable('ALIYUN_REGISTRY_AUTH_CODE', optional(text)),
  /** Approved companies re-checked per hourly run at most (the monthly re-check's rate). */
  registryRecheckPerRun: variable('REGISTRY_RECHECK_PER_RUN', withDefault(wholeNumber(0, 100_000), '60')),
  /** How long an SMS or e-mail provider (or the webhook) may take to answer before the send counts as failed. */
  deliveryTimeout: variable('DELIVERY_TIMEOUT_MS', timeoutMs('5000')),
  /** How long one send may take over all the providers of its list together (each still gets at most DELIVERY_TIMEOUT_MS). */
  deliveryTotalTimeout: variable('DELIVERY_TOTAL_TIMEOUT_MS', timeoutMs('8000')),
  /** A provider's circuit breaker opens after this many failed sends in a row (delivery/breaker.ts). */
  breakerFailures: variable('DELIVERY_BREAKER_FAILURES', withDefault(wholeNumber(1, 1_000_000), '5')),
  /** Seconds an open breaker skips its provider before one trial send. */
  breakerOpenSeconds: variable('DELIVERY_BREAKER_OPEN_SECONDS', withDefault(wholeNumber(1, 86_400), '60')),
  /** How long GATEWAY_URL may take to start its answer before /api answers GW0504. */
  gatewayTimeout: variable('GATEWAY_TIMEOUT_MS', timeoutMs('10000')),
  /** How long Turnstile's siteverify may take before the check answers CP0009. */
  turnstileTimeout: variable('TURNSTILE_TIMEOUT_MS', timeoutMs('4000')),
  captchaProvider: variable('CAPTCHA_PROVIDER', withDefault(z.enum(['slider', 'turnstile']), 'slider')),
  /**
   * The slider's proof of work: PBKDF2 iterations per try and the largest secret counter to reach. The defaults
   * give about 1 s median under the bench's 4x CPU slowdown; a deployed Worker refuses less than POW_FLOOR.
   */
  captchaPowCost: variable('CAPTCHA_POW_COST', withDefault(wholeNumber(1, 1_000_000), '4000')),
  captchaPowCounter: variable('CAPTCHA_POW_COUNTER', withDefault(wholeNumber(1, 1_000_000), '1200')),
  /** Seconds a proof of the person (identity/proof.ts: a sign-in or "confirm it's you") lets a session make sensitive changes. */
  stepUpMaxAge: variable('STEP_UP_MAX_AGE', withDefault(wholeNumber(60, 86_400), '600')),
  /** Days between asking to close an account and its erasure (the cooling-off; data-rights/service.ts). */
  closureCoolingOffDays: variable('CLOSURE_COOLING_OFF_DAYS', withDefault(wholeNumber(1, 60), '15')),
  passkeySignInCap: variable('PASSKEY_SIGN_IN_CAP', withDefault(wholeNumber(1, 1_000_000), '600')),
  /** Tracking events a minute per client network (buriedPoint/add, TR0001). */
  trackingNetworkCap: variable('TRACKING_NETWORK_CAP', withDefault(wholeNumber(1, 1_000_000), '60')),
  /** Turnstile (CAPTCHA_PROVIDER "turnstile"): the widget's site key and where tokens are verified. */
  turnstileSiteKey: variable('TURNSTILE_SITE_KEY', withDefault(text, '')),
  /** DNS-over-HTTPS resolver (JSON form) that proves a company's e-mail domain by its TXT record (company-sso/dns.ts). */
  dohUrl: variable('DOH_URL', withDefault(httpUrl, 'https://cloudflare-dns.com/dns-query')),
  turnstileVerifyUrl: variable('TURNSTILE_VERIFY_URL', withDefault(httpUrl, 'https://challenges.cloudflare.com/turnstile/v0/siteverify')),
  /** SMS per destination calling code per hour (unset: the production values). */
  smsHourlyCaps: variable('SMS_HOURLY_CAPS', withDefault(callingCodeCaps, '+86=600,*=20')),
  /** SMS to all destinations per rolling 24 hours. */
  smsDailyBudget: variable('SMS_DAILY_BUDGET', withDefault(wholeNumber(0, 1_000_000_000), '5000')),
  /** Seals outgoing hand-off blobs and opens incoming ones. */
  handoffKey: secret('HANDOFF_KEY', optional(key32), { requiredWhenDeployed: true }),
  /** The key before the last rotation, still accepted on arrival. */
  handoffKeyPrevious: secret('HANDOFF_KEY_PREVIOUS', optional(key32)),
  passwordPepper: secret('PASSWORD_PEPPER', optional(text), { requiredWhenDeployed: true }),
  /** Signs webhook deliveries (hex HMAC-SHA256 of the body in `x-signature`); needed when a channel uses the webhook. */
  deliveryWebhookSecret: secret('DELIVERY_WEBHOOK_SECRET', optional(text)),
  /** The providers' keys, each needed only when a channel uses that provider (edge/startup-check.ts names a missing one). */
  aliyunAccessKeySecret: secret('ALIYUN_ACCESS_KEY_SECRET', optional(text)),
  tencentSecretKey: secret('TENCENT_SECRET_KEY', optional(text)),
  twilioAuthToken: secret('TWILIO_AUTH_TOKEN', optional(text)),
  awsSecretAccessKey: secret('AWS_SECRET_ACCESS_KEY', optional(text)),
  /**
   * The secret part of the receipt addresses of the providers whose status pushes carry no signature of their own
   * (Aliyun, Tencent, and SES through SNS as HTTP Basic): at least 32 characters; unset, those receipts are refused.
   */
  deliveryReceiptToken: secret('DELIVERY_RECEIPT_TOKEN', optional(text.check(z.minLength(32, 'must be at least 32 characters')))),
  /** Signs passed slider checks. */
  captchaSecret: secret('CAPTCHA_SECRET', optional(text), { requiredWhenDeployed: true }),
  /** AES-256-GCM key (base64, 32 bytes) that encrypts the TOTP secrets of two-step verification at rest. */
  twoStepKey: secret('TWO_STEP_KEY', optional(key32), { requiredWhenDeployed: true }),
  /** AES-256-GCM key (base64, 32 bytes) that seals the OpenID Provider's private signing keys in D1. */
  oidcKey: secret('OIDC_KEY', optional(key32), { requiredWhenDeployed: true }),
  /** Calls of the OpenID token endpoint a minute, per client and per network. */
  oidcTokenClientCap: variable('OIDC_TOKEN_CLIENT_CAP', withDefault(wholeNumber(1, 1_000_000), '300')),
  oidcTokenNetworkCap: variable('OIDC_TOKEN_NETWORK_CAP', withDefault(wholeNumber(1, 1_000_000), '120')),
  /** The secret key of the Turnstile widget; needed only with CAPTCHA_PROVIDER "turnstile". */
  turnstileSecret: secret('TURNSTILE_SECRET', optional(text)),
  /**
   * Sign in with WeChat and WeCom (wechat/). Each method is on when its ids are set (a deployed Worker then needs
   * its secret: edge/startup-check.ts names a missing one); in a local run (DEV_OUTBOX "true") a method without
   * its secret is played by the local stand-in (wechat/stand-in.ts). The WeChat button shows on Chinese pages
   * and .cn hosts, and everywhere with WECHAT_LOGIN_EVERYWHERE "true".
   */
  wechatAppId: variable('WECHAT_APP_ID', optional(text)),
  wechatAppSecret: secret('WECHAT_APP_SECRET', optional(text)),
  wechatMpAppId: variable('WECHAT_MP_APP_ID', optional(text)),
  wechatMpAppSecret: secret('WECHAT_MP_APP_SECRET', optional(text)),
  wecomCorpId: variable('WECOM_CORP_ID', optional(text)),
  wecomAgentId: variable('WECOM_AGENT_ID', optional(text.check(z.regex(/^\d{1,20}$/, 'must be the agent id in digits')))),
  wecomSecret: secret('WECOM_SECRET', optional(text)),
  wechatEverywhere: variable('WECHAT_LOGIN_EVERYWHERE', flag),
  /** How long WeChat's or WeCom's API may take to answer before the sign-in answers WX0005. */
  wechatTimeout: variable('WECHAT_TIMEOUT_MS', timeoutMs('5000')),
  /** WeChat and WeCom flows started an hour per client network (wechat/db.ts insertState). */
  wechatStartCap: variable('WECHAT_START_CAP', withDefault(wholeNumber(1, 1_000_000), '600')),
  wechatApiUrl: variable('WECHAT_API_URL', withDefault(httpUrl, 'https://api.weixin.qq.com')),
  wechatOpenUrl: variable('WECHAT_OPEN_URL', withDefault(httpUrl, 'https://open.weixin.qq.com')),
  wecomApiUrl: variable('WECOM_API_URL', withDefault(httpUrl, 'https://qyapi.weixin.qq.com')),
  wecomLoginUrl: variable('WECOM_LOGIN_URL', withDefault(httpUrl, 'https://login.work.weixin.qq.com')),
} satisfies Record<string, Setting>;

type Settings = { [K in keyof typeof settings]: z.output<(typeof settings)[K]['schema']> };

/** The typed configuration; `localRun` is only read through its named flags. */
export interface Config extends Omit<Settings, 'localRun'> {
  /** ENVIRONMENT is "staging" or "production": the startup check applies. */
  deployed: boolean;
  /** Codes go to the D1 outbox (readable at /api/dev/outbox) instead of a real provider. */
  outboxDelivery: boolean;
  /** The /dev/* gateway routes (outbox reader, captcha reveal, user seeding) answer. */
  devRoutes: boolean;
  /** Without PASSWORD_PEPPER a fixed, public dev pepper is used instead of failing closed. */
  devPepper: boolean;
  /** Without HANDOFF_KEY the public dev hand-off key is used instead of refusing every blob. */
  devHandoffKey: boolean;
  /** Without CAPTCHA_SECRET a public dev key signs the human check's challenges instead of failing closed. */
  devCaptchaSecret: boolean;
  /** Without TWO_STEP_KEY a public dev key encrypts TOTP secrets instead of refusing every enrolment. */
  devTwoStepKey: boolean;
  /** Without OIDC_KEY a public dev key seals the OpenID signing keys instead of refusing to sign. */
  devOidcKey: boolean;
  /** Redirect targets may be plain-http localhost (still only allow-listed origins). */
  httpLocalhostRedirects: boolean;
  /** A WeChat or WeCom method without its secret is played by the local stand-in (wechat/stand-in.ts). */
  wechatStandIn: boolean;
  registryStandIn: boolean;
  lang: LangDefaults;
  /** Origins whose pages may make a state-changing call: the portal and navigator sites and the .cn/.com pair. */
  siteOrigins: string[];
  /** Every redirect target passes `safeRedirect` with this; the fallback is portalUrl. */
  redirect: RedirectAllowance;
  /** Where passkeys work: the relying party id and the origins a ceremony may come from; null when neither is configured. */
  passkeys: PasskeySite | null;
  /** The providers of each channel in the order they are tried, the unset ones resolved (SMS_PROVIDER, else DELIVERY; and so on). */
  channels: { sms: SmsProvider[]; smsInternational: SmsProvider[]; email: EmailProvider[] };
}

export interface PasskeySite {
  rpID: string;
  origins: string[];
}

/**
 * The passkey site of the configuration: PASSKEY_ORIGINS (else PORTAL_ORIGIN) and PASSKEY_RP_ID (else the first
 * origin's host). Every origin must be the relying party's host or under it, as browsers require.
 */
function passkeySite(parsed: Pick<Settings, 'passkeyRpId' | 'passkeyOrigins' | 'portalOrigin'>, problems: string[]): PasskeySite | null {
  const origins = parsed.passkeyOrigins.length ? parsed.passkeyOrigins : parsed.portalOrigin ? [parsed.portalOrigin] : [];
  if (!origins.length) return null;
  const rpID = parsed.passkeyRpId ?? new URL(origins[0]!).hostname;
  for (const origin of origins) {
    const host = new URL(origin).hostname;
    if (host !== rpID && !host.endsWith(`.${rpID}`)) problems.push(`PASSKEY_ORIGINS "${origin}" is not on PASSKEY_RP_ID "${rpID}"`);
  }
  return { rpID, origins };
}

const requiredSecrets = Object.entries(settings as Record<string, Setting>)
  .filter(([, setting]) => setting.requiredWhenDeployed)
  .map(([field, setting]) => ({ field: field as keyof Config, name: setting.name }));

/** Names of the secrets a deployed Worker must have; wrangler.toml's `[env.*.secrets] required` lists the same. */
export const REQUIRED_SECRETS = requiredSecrets.map((secret) => secret.name);

/** The required secrets this configuration lacks, by name. */
export const missingSecrets = (config: Config) => requiredSecrets.filter(({ field }) => !config[field]).map(({ name }) => name);

/** The configuration is malformed; `problems` has one line per variable, each starting with its name. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** An origin from a configured URL, or undefined for a path. */
const originOf = (value: string) => (/^https?:\/\//i.test(value) ? new URL(value).origin : undefined);
/** The origins among `values` (paths and unset ones dropped), each once. */
const distinctOrigins = (values: (string | undefined)[]) => [
  ...new Set(values.map((value) => value && originOf(value)).filter((origin): origin is string => Boolean(origin))),
];

/** Parses the bindings' vars and secrets; throws a ConfigError naming every malformed variable at once. */
export function parseConfig(env: object): Config {
  const raw = env as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [field, setting] of Object.entries(settings as Record<string, Setting>)) {
    const value = raw[setting.name];
    const parsed = setting.schema.safeParse(value);
    if (parsed.success) {
      values[field] = parsed.data;
      continue;
    }
    const got = setting.secret || typeof value !== 'string' ? '' : ` (got "${value}")`;
    problems.push(`${setting.name} ${parsed.error.issues.map((issue) => issue.message).join(', ')}${got}`);
  }
  if (problems.length) throw new ConfigError(problems);
  const { localRun, ...parsed } = values as Settings;
  const passkeys = passkeySite(parsed, problems);
  if (problems.length) throw new ConfigError(problems);
  // The configured destinations are configuration too, so their origins are allowed without repeating them.
  const siteOrigins = distinctOrigins([parsed.portalOrigin, parsed.siteCn, parsed.siteCom, parsed.navigatorOrigin]);
  const destinations = [...siteOrigins, parsed.portalUrl, parsed.zhoushanUrl, parsed.invitationLetterUrl];
  return {
    ...parsed,
    deployed: parsed.environment !== undefined,
    // One var (DEV_OUTBOX) turns on every local stand-in today; each has its own flag so it can be split.
    outboxDelivery: localRun,
    devRoutes: localRun,
    devPepper: localRun,
    devHandoffKey: localRun,
    devCaptchaSecret: localRun,
    devTwoStepKey: localRun,
    devOidcKey: localRun,
    httpLocalhostRedirects: localRun,
    wechatStandIn: localRun,
    registryStandIn: localRun,
    lang: { defaultLang: parsed.defaultLang, zhHostSuffixes: parsed.zhHostSuffixes },
    siteOrigins,
    passkeys,
    channels: {
      sms: parsed.smsProvider ?? [parsed.delivery],
      smsInternational: parsed.smsInternationalProvider ?? parsed.smsProvider ?? [parsed.delivery],
      email: parsed.emailProvider ?? [parsed.delivery],
    },
    redirect: {
      origins: distinctOrigins([...parsed.redirectAllowlist, ...destinations]),
      fallback: parsed.portalUrl,
      allowHttpLocalhost: localRun,
    },
  };
}

// The bindings object is the same for every request of an isolate (and one per test env), so each is parsed
// once; a malformed one keeps throwing the same error.
const parsedByEnv = new WeakMap<object, Config | ConfigError>();

/**
 * `env` with some bindings replaced (D1 by a D1 session, say), keeping the configuration already parsed from it:
 * bindings are not settings, and parsing again would cost every call that does this.
 */
export function withBindings<T extends object>(env: T, bindings: Partial<T>): T {
  const next = { ...env, ...bindings };
  const parsed = parsedByEnv.get(env);
  if (parsed) parsedByEnv.set(next, parsed);
  return next;
}

/** The configuration of these bindings, parsed on first use. Throws ConfigError when it is malformed. */
export function configOf(env: object): Config {
  let config = parsedByEnv.get(env);
  if (!config) {
    try {
      config = parseConfig(env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      config = error;
    }
    parsedByEnv.set(env, config);
  }
  if (config instanceof ConfigError) throw config;
  return config;
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The Worker's typed configuration, set by withConfig on the edge and in the gateway. */
    config: Config;
  }
}

/** Puts the typed configuration on the context as `c.get('config')`. */
export const withConfig: MiddlewareHandler = async (c, next) => {
  c.set('config', configOf(c.env as object));
  await next();
};
