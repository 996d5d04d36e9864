import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import app, { configurationProblems } from '../../functions/worker';
import type { WorkerEnv } from '../../functions/env';
import { REQUIRED_SECRETS } from '../../functions/config';
import { deployedVars, startWorkerEnv } from './worker-env';
import { readToEnd, statusOf } from './gateway-client';

/** A deployed Worker refuses to serve without its secrets, and any Worker with a malformed var. */
let worker: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  worker = await startWorkerEnv('startup-check');
});
afterAll(() => worker.dispose());
afterEach(() => vi.restoreAllMocks());

const production = deployedVars;

/** A fresh env object each time: the check's result is cached per bindings object (per isolate). */
const request = async (path: string, env: Record<string, unknown>) =>
  // Cloudflare names the client of every request to a deployed Worker; one without it is refused.
  readToEnd(await app.request(`https://portal.example.com${path}`, { headers: { 'cf-connecting-ip': '203.0.113.1' } }, { ...worker.env, ...env } as WorkerEnv, worker.ctx));

describe('startup check', () => {
  it.each(REQUIRED_SECRETS)('answers 500 naming %s when that secret is missing in production, and logs it', async (name) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const path of ['/login', '/api/agg-web/country/selectPhoneCode']) {
      const res = await request(path, { ...production, [name]: undefined });
      expect(res.status, path).toBe(500);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
      const text = await res.text();
      expect(text).toContain(`missing secret ${name}`);
      for (const other of REQUIRED_SECRETS.filter((n) => n !== name)) expect(text).not.toContain(other);
    }
    expect(error).toHaveBeenCalledTimes(2);
    expect(error.mock.calls[0]![0]).toContain(`missing secret ${name}`);
  });

  it('checks once per isolate: the same bindings log once however many requests come', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const env = { ...worker.env, ...production, CAPTCHA_SECRET: '' } as WorkerEnv;
    for (let i = 0; i < 5; i++) expect(await statusOf(app.request('https://portal.example.com/login', {}, env, worker.ctx))).toBe(500);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('names every problem at once: each channel left on the outbox and the dev outbox too', () => {
    expect(configurationProblems({ ENVIRONMENT: 'production', DEV_OUTBOX: 'true', DELIVERY: 'outbox' })).toEqual([
      ...REQUIRED_SECRETS.map((name) => `missing secret ${name}`),
      'SMS_PROVIDER (or DELIVERY) must name a real provider, not "outbox"',
      'SMS_INTERNATIONAL_PROVIDER (or DELIVERY) must name a real provider, not "outbox"',
      'EMAIL_PROVIDER (or DELIVERY) must name a real provider, not "outbox"',
      'DEV_OUTBOX must not be "true"',
      'PORTAL_ORIGIN must be an https origin',
      'NAVIGATOR_ORIGIN must be an https origin',
    ]);
    expect(configurationProblems({ ...production, ENVIRONMENT: 'staging', PASSWORD_PEPPER: ' ' })).toEqual(['missing secret PASSWORD_PEPPER']);
  });

  it("names each channel's provider settings that are missing, and serves once they are all there", () => {
    const providers = { SMS_PROVIDER: 'aliyun', SMS_INTERNATIONAL_PROVIDER: 'twilio', EMAIL_PROVIDER: 'ses', DELIVERY_WEBHOOK_SECRET: '' };
    expect(configurationProblems({ ...production, ...providers })).toEqual([
      'missing variable ALIYUN_ACCESS_KEY_ID (SMS_PROVIDER "aliyun")',
      // A template for every kind of message that goes by SMS: codes, new-device notices, review decisions,
      // security changes.
      'missing variable SMS_CODE_TEMPLATES (SMS_PROVIDER "aliyun")',
      'missing variable SMS_NOTICE_TEMPLATES (SMS_PROVIDER "aliyun")',
      'missing variable SMS_REVIEW_TEMPLATES (SMS_PROVIDER "aliyun")',
      'missing variable SMS_SECURITY_TEMPLATES (SMS_PROVIDER "aliyun")',
      'missing variable SMS_SIGN_NAMES (SMS_PROVIDER "aliyun")',
      'missing secret ALIYUN_ACCESS_KEY_SECRET (SMS_PROVIDER "aliyun")',
      'missing variable TWILIO_ACCOUNT_SID (SMS_INTERNATIONAL_PROVIDER "twilio")',
      'missing variable TWILIO_FROM (SMS_INTERNATIONAL_PROVIDER "twilio")',
      'missing secret TWILIO_AUTH_TOKEN (SMS_INTERNATIONAL_PROVIDER "twilio")',
      'missing variable SES_REGION (EMAIL_PROVIDER "ses")',
      'missing variable SES_FROM (EMAIL_PROVIDER "ses")',
      'missing variable AWS_ACCESS_KEY_ID (EMAIL_PROVIDER "ses")',
      'missing secret AWS_SECRET_ACCESS_KEY (EMAIL_PROVIDER "ses")',
    ]);
    const complete = {
      ...providers,
      ALIYUN_ACCESS_KEY_ID: 'LTAI-id',
      ALIYUN_ACCESS_KEY_SECRET: 'aliyun-secret',
      SMS_SIGN_NAMES: 'zh=船运平台,en=ShipPortal',
      SMS_CODE_TEMPLATES: 'zh=SMS_1,en=SMS_2',
      SMS_NOTICE_TEMPLATES: 'zh=SMS_3',
      SMS_REVIEW_TEMPLATES: 'zh=SMS_5,en=SMS_6',
      SMS_SECURITY_TEMPLATES: 'zh=SMS_7,en=SMS_8',
      TWILIO_ACCOUNT_SID: 'AC123',
      TWILIO_FROM: '+15005550006',
      TWILIO_AUTH_TOKEN: 'twilio-token',
      SES_REGION: 'eu-west-1',
      SES_FROM: 'no-reply@example.com',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
    };
    expect(configurationProblems({ ...production, ...complete })).toEqual([]);
    // The webhook secret is needed only while a channel uses the webhook.
    expect(configurationProblems({ ...production, ...complete, SMS_PROVIDER: 'webhook' })).toEqual(['missing secret DELIVERY_WEBHOOK_SECRET (SMS_PROVIDER "webhook")']);
  });

  it('refuses the test headers for client IP and country, and a plain-http site origin, when deployed', () => {
    const unsafe = { DEV_TRUST_CLIENT_IP_HEADER: 'true', DEV_TRUST_COUNTRY_HEADER: 'true', PORTAL_ORIGIN: 'http://portal.example.com' };
    expect(configurationProblems({ ...production, ...unsafe })).toEqual([
      'DEV_TRUST_CLIENT_IP_HEADER must not be "true"',
      'DEV_TRUST_COUNTRY_HEADER must not be "true"',
      'PORTAL_ORIGIN must be an https origin',
    ]);
    // Locally the same flags are the test stand-ins they are meant to be.
    expect(configurationProblems(unsafe)).toEqual([]);
  });

  it('serves a complete production configuration, and a local run without any secret', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = await request('/api/agg-web/country/selectPhoneCode', production);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { code: string }).code).toBe('0');
    // Locally (no ENVIRONMENT) the dev stand-ins apply and nothing is checked.
    expect((await request('/api/agg-web/country/selectPhoneCode', {})).status).toBe(200);
    expect(error).not.toHaveBeenCalled();
  });
});

describe('configuration parsed once', () => {
  it('refuses to serve, locally too, while a var is malformed, naming it to every caller of a burst', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // "ture" used to read as false: the region redirect was silently off.
    const env = { ...worker.env, REGION_REDIRECT: 'ture', SITE_CN: 'https://portal.example.cn', SITE_COM: 'https://portal.example.com' } as WorkerEnv;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.request(
          i % 2 ? 'https://portal.example.cn/login' : 'https://portal.example.cn/api/agg-web/country/selectPhoneCode',
          { headers: { 'x-debug-country': 'DE', 'cf-connecting-ip': `203.0.113.${i}`, origin: 'https://evil.example' } },
          env,
          worker.ctx,
        ),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(500);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toBe('This service is not configured: REGION_REDIRECT must be "true" or "false" (got "ture").\n');
    }
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('reads each var once per bindings object, however many requests reach the edge and the gateway', async () => {
    let reads = 0;
    const env = Object.defineProperty({ ...worker.env }, 'DEFAULT_LANG', {
      enumerable: true,
      get: () => {
        reads += 1;
        return 'zh';
      },
    }) as WorkerEnv;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        app.request(
          `http://localhost/api/agg-web/${i % 2 ? 'country/selectPhoneCode' : 'dev/nothing'}`,
          { headers: { host: `forged-${i}.example`, 'cf-connecting-ip': `198.51.100.${i}` } },
          env,
          worker.ctx,
        ),
      ),
    );
    for (const [i, res] of answers.entries()) {
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe(i % 2 ? '0' : 'GW0404');
    }
    expect(reads).toBe(1);
  });
});
