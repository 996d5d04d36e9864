import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import worker from '../../functions/worker';
import { prune, RETENTION } from '../../functions/gateway/services/prune';
import { startWorkerEnv } from './worker-env';

/**
 * Old rows are pruned on a schedule: the retention of every table, on a real local D1 with the clock moved
 * instead of waiting, through the Worker's `scheduled` handler as the Cron Trigger calls it.
 */
let env: Awaited<ReturnType<typeof startWorkerEnv>>;
beforeAll(async () => {
  env = await startWorkerEnv('prune');
});
afterAll(() => env.dispose());

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const retentionOf = (table: string) => RETENTION.find((r) => r.table === table)!.keepMs;

/** One row per table whose time is `at` (epoch ms), tagged so a test can find it again. */
async function rowsAt(tag: string, at: number) {
  const db = env.env.DB;
  const userId = `user-${tag}`;
  await db.batch([
    db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)').bind(userId, `${tag}@example.com`, at),
    db.prepare("INSERT INTO tracking_events (event_id, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO client_errors (message, url, ip, created_at) VALUES (?, 'https://a.example/', '203.0.113.1', ?)").bind(tag, at),
    db
      .prepare("INSERT INTO codes (recipient, purpose, channel, code_hash, ip, created_at, expires_at) VALUES (?, 'login', 'email', 'h', '203.0.113.1', ?, ?)")
      .bind(tag, at - 5 * 60 * 1000, at),
    db
      .prepare("INSERT INTO login_links (token_hash, kind, user_id, recipient, ip, created_at, expires_at) VALUES (?, 'email_pass', NULL, ?, '203.0.113.1', ?, ?)")
      .bind(`link-${tag}`, tag, at - 15 * 60 * 1000, at),
    db.prepare("INSERT INTO handoff_jtis (jti, purpose, expires_at, used_at) VALUES (?, 'session', ?, ?)").bind(tag, Math.floor(at / 1000), Math.floor(at / 1000) - 30),
    db
      .prepare("INSERT INTO slider_challenges (session_id, scene, subject, target_x, piece_y, created_at, expires_at) VALUES (?, 'sms', ?, 1, 1, ?, ?)")
      .bind(tag, tag, at - 2 * 60 * 1000, at),
    db.prepare("INSERT INTO sessions (token_hash, user_id, kind, created_at, expires_at) VALUES (?, ?, 'platform', ?, ?)").bind(`session-${tag}`, userId, at - 7 * DAY, at),
    db.prepare("INSERT INTO invitation_attempts (user_id, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(userId, at),
  ]);
}

/** Which tables still hold the row tagged `tag`. */
async function tablesHolding(tag: string): Promise<string[]> {
  const db = env.env.DB;
  const checks: [string, D1PreparedStatement][] = [
    ['tracking_events', db.prepare('SELECT 1 FROM tracking_events WHERE event_id = ?').bind(tag)],
    ['client_errors', db.prepare('SELECT 1 FROM client_errors WHERE message = ?').bind(tag)],
    ['codes', db.prepare('SELECT 1 FROM codes WHERE recipient = ?').bind(tag)],
    ['login_links', db.prepare('SELECT 1 FROM login_links WHERE recipient = ?').bind(tag)],
    ['handoff_jtis', db.prepare('SELECT 1 FROM handoff_jtis WHERE jti = ?').bind(tag)],
    ['slider_challenges', db.prepare('SELECT 1 FROM slider_challenges WHERE session_id = ?').bind(tag)],
    ['sessions', db.prepare('SELECT 1 FROM sessions WHERE token_hash = ?').bind(`session-${tag}`)],
    ['invitation_attempts', db.prepare('SELECT 1 FROM invitation_attempts WHERE user_id = ?').bind(`user-${tag}`)],
  ];
  const found = await Promise.all(checks.map(async ([table, statement]) => ((await statement.first()) ? table : null)));
  return found.filter((table): table is string => table !== null);
}

const ALL_TABLES = RETENTION.map((r) => r.table).sort();

describe('prune', () => {
  it('has a retention for every table that anonymous requests or spent secrets fill', () => {
    expect(ALL_TABLES).toEqual(
      ['client_errors', 'codes', 'handoff_jtis', 'invitation_attempts', 'login_links', 'sessions', 'slider_challenges', 'tracking_events'].sort(),
    );
  });

  it('deletes each row one hour past its retention and keeps each row one hour short of it', async () => {
    const now = Date.UTC(2026, 8, 1, 12);
    await rowsAt('keep-long', now - DAY - HOUR);
    for (const { table, keepMs } of RETENTION) {
      await rowsAt(`old-${table}`, now - keepMs - HOUR);
      await rowsAt(`new-${table}`, now - keepMs + HOUR);
    }
    const deleted = await prune(env.env.DB, now);
    for (const { table } of RETENTION) {
      expect(await tablesHolding(`old-${table}`), `old rows of the ${table} batch`).not.toContain(table);
      expect(await tablesHolding(`new-${table}`), `new rows of the ${table} batch`).toContain(table);
      expect(deleted[table], table).toBeGreaterThan(0);
    }
    // Tracking keeps 90 days, client errors 30, the spent secrets a day: a row a day and an hour old is gone
    // only from the tables that keep a day.
    expect(await tablesHolding('keep-long')).toEqual(['tracking_events', 'client_errors']);
  });

  it('runs from the Cron Trigger: scheduled() prunes at the trigger time', async () => {
    const at = Date.UTC(2027, 0, 10, 3, 17);
    await rowsAt('cron-old', at - retentionOf('tracking_events') - HOUR);
    await rowsAt('cron-new', at - HOUR);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await worker.scheduled({ scheduledTime: at, cron: '17 * * * *', noRetry() {} } as ScheduledController, env.env);
    expect(await tablesHolding('cron-old')).toEqual([]);
    expect((await tablesHolding('cron-new')).sort()).toEqual(ALL_TABLES);
    expect(log).toHaveBeenCalledWith('pruned', expect.stringContaining('"tracking_events":'));
    log.mockRestore();
  });

  it('is scheduled hourly in every environment of wrangler.toml', () => {
    for (const name of [undefined, 'staging', 'production']) {
      const config = unstable_readConfig({ config: 'wrangler.toml', env: name });
      expect(config.triggers.crons, name ?? 'top level').toEqual(['17 * * * *']);
    }
  });
});
