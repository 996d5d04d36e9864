import { describe, expect, it } from 'vitest';
import worker from '../../functions/worker';
import { useWorkerEnv } from './gateway-client';

/** The WeChat stand-in's rows (codes, tokens, grants) are pruned by the hourly cron, only while the stand-in is on. */
const { worker: env } = useWorkerEnv('wechat-stand-in-prune', { PORTAL_ORIGIN: 'http://localhost' });

describe('the WeChat stand-in is pruned', () => {
  const HOUR = 60 * 60_000;
  const rows = (tag: string, at: number) => {
    const db = env.env.DB;
    return [
      db.prepare("INSERT INTO dev_wechat_codes (code, app_id, person, scope, created_at) VALUES (?, 'app', 'p', 'snsapi_login', ?)").bind(`${tag}-code`, at - 5 * 60_000),
      db.prepare("INSERT INTO dev_wechat_tokens (token, app_id, person, scope, expires_at) VALUES (?, 'app', 'p', 'snsapi_login', ?)").bind(`${tag}-token`, at),
      db.prepare("INSERT INTO dev_wechat_grants (app_id, person, created_at) VALUES ('app', ?, ?)").bind(`${tag}-grant`, at - 30 * 24 * HOUR),
    ];
  };
  const left = async () => {
    const db = env.env.DB;
    const [codes, tokens, grants] = await db.batch([db.prepare('SELECT code AS k FROM dev_wechat_codes'), db.prepare('SELECT token AS k FROM dev_wechat_tokens'), db.prepare('SELECT person AS k FROM dev_wechat_grants')]);
    return [...codes!.results, ...tokens!.results, ...grants!.results].map((row) => (row as { k: string }).k).filter((k) => k.startsWith('prune-'));
  };
  const hourly = (at: number, vars: Record<string, unknown> = {}) =>
    worker.scheduled!({ scheduledTime: at, cron: '17 * * * *', noRetry() {} } as ScheduledController, { ...env.env, ...vars } as never);

  it('the hourly cron deletes an expired code, token and grant and keeps live ones; with the stand-in off it leaves them', async () => {
    const at = Date.UTC(2027, 2, 1, 9, 17);
    await env.env.DB.batch([...rows('prune-old', at - HOUR), ...rows('prune-live', at + HOUR)]);
    const quiet = { log: console.log };
    console.log = () => {};
    try {
      await hourly(at, { DEV_OUTBOX: 'false', DEV_TRUST_COUNTRY_HEADER: 'false', DEV_TRUST_CLIENT_IP_HEADER: 'false', OIDC_KEY: btoa('k'.repeat(32)) });
      expect((await left()).sort()).toEqual(['prune-live-code', 'prune-live-grant', 'prune-live-token', 'prune-old-code', 'prune-old-grant', 'prune-old-token']);
      await hourly(at);
    } finally {
      console.log = quiet.log;
    }
    expect((await left()).sort()).toEqual(['prune-live-code', 'prune-live-grant', 'prune-live-token']);
  });
});
