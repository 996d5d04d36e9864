import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { ConfigError, configOf, missingSecrets, parseConfig, REQUIRED_SECRETS } from '../../functions/config';
import { configurationProblems } from '../../functions/worker';

const KEY = 'zuiqE9jfleZdxpPDwWhU2NYSu3D2TcoSo14VneEHAEE=';

/** The problems a ConfigError lists for these vars (fails the test when the vars parse). */
function problemsOf(vars: Record<string, unknown>): string[] {
  try {
    parseConfig(vars);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`parsed: ${JSON.stringify(vars)}`);
}

describe('parseConfig', () => {
  it('reads a local run from wrangler.toml: every dev stand-in on, and the typed values', () => {
    const { vars } = unstable_readConfig({ config: 'wrangler.toml' });
    const config = parseConfig(vars);
    expect(config).toMatchObject({
      deployed: false,
      outboxDelivery: true,
      devRoutes: true,
      devPepper: true,
      devHandoffKey: true,
      httpLocalhostRedirects: true,
      trustCountryHeader: true,
      regionRedirect: false,
      codeLength: 6,
      delivery: 'outbox',
      gatewayUrl: undefined,
      deliveryWebhookUrl: undefined,
      lang: { defaultLang: 'en', zhHostSuffixes: ['.cn'] },
      redirect: { fallback: '/user_center', allowHttpLocalhost: true },
    });
    expect(config.redirect.origins).toEqual(expect.arrayContaining(['http://127.0.0.1:8787', 'https://portal.example.cn', 'https://zhoushan.example.com']));
  });

  it.each(['staging', 'production'])('reads the %s environment of wrangler.toml: no dev stand-in, and it may serve with its secrets', (env) => {
    const config = unstable_readConfig({ config: 'wrangler.toml', env });
    // The deploy refuses a missing secret only if wrangler.toml declares the same list the startup check uses.
    expect(config.secrets?.required).toEqual(REQUIRED_SECRETS);
    const secrets = { HANDOFF_KEY: KEY, PASSWORD_PEPPER: 'p', DELIVERY_WEBHOOK_SECRET: 'w', CAPTCHA_SECRET: 'c', TWO_STEP_KEY: KEY, OIDC_KEY: KEY };
    const parsed = parseConfig({ ...config.vars, ...secrets });
    expect(parsed).toMatchObject({ deployed: true, environment: env, outboxDelivery: false, devRoutes: false, devPepper: false, trustCountryHeader: false });
    expect(parsed.redirect.allowHttpLocalhost).toBe(false);
    expect(configurationProblems({ ...config.vars, ...secrets })).toEqual([]);
    expect(missingSecrets(parseConfig(config.vars))).toEqual(REQUIRED_SECRETS);
  });

  it('names each malformed variable, all at once, with the value it got', () => {
    const problems = problemsOf({
      REGION_REDIRECT: 'ture',
      DEV_OUTBOX: 'yes',
      CODE_LENGTH: '3',
      DELIVERY: 'sms',
      DEFAULT_LANG: 'de',
      GATEWAY_URL: 'gateway.internal',
      SITE_COM: 'javascript:alert(1)',
      PORTAL_URL: '//evil.example',
      REDIRECT_ALLOWLIST: 'https://ok.example.com, ftp://files.example.com',
      ENVIRONMENT: 'prod',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^ENVIRONMENT .*\(got "prod"\)$/),
      expect.stringMatching(/^DEFAULT_LANG .*\(got "de"\)$/),
      'GATEWAY_URL must be an http(s) URL (got "gateway.internal")',
      'DEV_OUTBOX must be "true" or "false" (got "yes")',
      'REGION_REDIRECT must be "true" or "false" (got "ture")',
      'SITE_COM must be an http(s) URL (got "javascript:alert(1)")',
      'REDIRECT_ALLOWLIST "ftp://files.example.com" must be an http(s) URL (got "https://ok.example.com, ftp://files.example.com")',
      'PORTAL_URL must be a path starting with "/" or an http(s) URL (got "//evil.example")',
      'CODE_LENGTH must be a whole number from 4 to 8 (got "3")',
      expect.stringMatching(/^DELIVERY .*\(got "sms"\)$/),
    ]);
  });

  it('reads the SMS limits per calling code and per day, and refuses a cap list without "*" or a bad entry', () => {
    expect(parseConfig({ SMS_HOURLY_CAPS: '+86=600, +44=3,*=20', SMS_DAILY_BUDGET: '5000' })).toMatchObject({
      smsHourlyCaps: { '+86': 600, '+44': 3, '*': 20 },
      smsDailyBudget: 5000,
    });
    expect(parseConfig({})).toMatchObject({ smsHourlyCaps: { '+86': 600, '*': 20 }, smsDailyBudget: 5000 });
    expect(problemsOf({ SMS_HOURLY_CAPS: '+86=600', SMS_DAILY_BUDGET: 'lots' })).toEqual([
      'SMS_HOURLY_CAPS needs a "*=N" entry for the calling codes it does not name (got "+86=600")',
      'SMS_DAILY_BUDGET must be a whole number from 0 to 1000000000 (got "lots")',
    ]);
    expect(problemsOf({ SMS_HOURLY_CAPS: '86=600,*=20' })).toEqual(['SMS_HOURLY_CAPS "86=600" must be "+CODE=N" or "*=N" (got "86=600,*=20")']);
  });

  it('refuses a malformed hand-off key without ever printing a secret', () => {
    const leaked = 'c2hvcnQta2V5LXNlY3JldA==';
    const problems = problemsOf({ HANDOFF_KEY: leaked, HANDOFF_KEY_PREVIOUS: 'not base64 at all!' });
    expect(problems).toEqual(['HANDOFF_KEY must be base64 of exactly 32 bytes', 'HANDOFF_KEY_PREVIOUS must be base64 of exactly 32 bytes']);
    expect(problems.join()).not.toContain(leaked);
    expect(parseConfig({ HANDOFF_KEY: KEY.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') }).handoffKey).toBeDefined();
  });

  it('reads the site origins: one origin each (a path is refused), the site list for the cross-site check', () => {
    const config = parseConfig({
      PORTAL_ORIGIN: 'https://Portal.example.com/',
      NAVIGATOR_ORIGIN: 'https://navigator.example.com',
      SITE_CN: 'https://portal.example.cn',
      SITE_COM: 'https://portal.example.com',
    });
    expect(config.portalOrigin).toBe('https://portal.example.com');
    expect(config.siteOrigins).toEqual(['https://portal.example.com', 'https://portal.example.cn', 'https://navigator.example.com']);
    expect(config.redirect.origins).toEqual(expect.arrayContaining(config.siteOrigins));
    expect(() => parseConfig({ PORTAL_ORIGIN: 'https://portal.example.com/login', NAVIGATOR_ORIGIN: 'portal.example.com' })).toThrow(
      /PORTAL_ORIGIN must be an http\(s\) origin without a path.*NAVIGATOR_ORIGIN must be an http\(s\) origin/,
    );
    expect(parseConfig({ DEV_TRUST_CLIENT_IP_HEADER: 'true' }).trustClientIpHeader).toBe(true);
    expect(() => parseConfig({ DEV_TRUST_CLIENT_IP_HEADER: 'yes' })).toThrow(/DEV_TRUST_CLIENT_IP_HEADER/);
  });

  it('reads the passkey site from PASSKEY_* or else PORTAL_ORIGIN, and refuses an origin outside the relying party', () => {
    expect(parseConfig({ PORTAL_ORIGIN: 'https://portal.example.com' }).passkeys).toEqual({ rpID: 'portal.example.com', origins: ['https://portal.example.com'] });
    expect(parseConfig({}).passkeys).toBeNull();
    expect(
      parseConfig({ PORTAL_ORIGIN: 'https://portal.example.com', PASSKEY_RP_ID: 'Example.com', PASSKEY_ORIGINS: 'https://portal.example.com, https://example.com/' }).passkeys,
    ).toEqual({ rpID: 'example.com', origins: ['https://portal.example.com', 'https://example.com'] });
    expect(problemsOf({ PASSKEY_RP_ID: 'example.com', PASSKEY_ORIGINS: 'https://evilexample.com' })).toEqual([
      'PASSKEY_ORIGINS "https://evilexample.com" is not on PASSKEY_RP_ID "example.com"',
    ]);
    expect(problemsOf({ PASSKEY_RP_ID: 'https://example.com' })[0]).toMatch(/^PASSKEY_RP_ID must be a host name/);
  });

  it('lower-cases host suffixes and drops blanks between commas', () => {
    expect(parseConfig({ ZH_HOST_SUFFIXES: ' .CN, ,.Com.Cn ' }).lang.zhHostSuffixes).toEqual(['.cn', '.com.cn']);
  });

  it('reads unset, empty and blank alike as "not configured", and a secret of spaces as missing', () => {
    for (const blank of [undefined, '', '   ']) {
      const config = parseConfig({ ENVIRONMENT: 'production', GATEWAY_URL: blank, CODE_LENGTH: blank, DEV_OUTBOX: blank, PASSWORD_PEPPER: blank });
      expect(config).toMatchObject({ gatewayUrl: undefined, codeLength: 6, devPepper: false, passwordPepper: undefined });
      expect(missingSecrets(config)).toContain('PASSWORD_PEPPER');
    }
  });

  it('parses each bindings object once, however many callers ask at once', async () => {
    let reads = 0;
    const env = Object.defineProperty({ DEV_OUTBOX: 'true' }, 'CODE_LENGTH', {
      get: () => {
        reads += 1;
        return '5';
      },
    });
    const configs = await Promise.all(Array.from({ length: 50 }, async () => configOf(env)));
    expect(new Set(configs).size).toBe(1);
    expect(configs[0]!.codeLength).toBe(5);
    expect(reads).toBe(1);
    // A malformed one keeps failing with the same error, also without a second parse.
    const bad = Object.defineProperty({}, 'DELIVERY', {
      get: () => {
        reads += 1;
        return 'pigeon';
      },
    });
    const errors = Array.from({ length: 20 }, () => {
      try {
        configOf(bad);
      } catch (error) {
        return error;
      }
    });
    expect(new Set(errors).size).toBe(1);
    expect(String(errors[0])).toContain('DELIVERY');
    expect(reads).toBe(2);
  });
});
