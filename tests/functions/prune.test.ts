import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import worker from '../../functions/worker';
import { prune, RETENTION } from '../../functions/gateway/maintenance/prune';
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
function rowsAt(tag: string, at: number): D1PreparedStatement[] {
  const db = env.env.DB;
  const userId = `user-${tag}`;
  return [
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
    db.prepare("INSERT INTO sessions (token_hash, user_id, kind, created_at, expires_at) VALUES (?, ?, 'platform', ?, ?)").bind(tag, userId, at - 7 * DAY, at),
    db.prepare("INSERT INTO invitation_attempts (user_id, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO code_guesses (recipient, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO password_failures (subject, network, failures, updated_at) VALUES (?, '203.0.113.1', 3, ?)").bind(tag, at),
    db.prepare("INSERT INTO new_user_checks (subject, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO sign_ins (user_id, created_at, method, success, network) VALUES (?, ?, 'password', 1, ?)").bind(userId, at, tag),
    db
      .prepare("INSERT INTO webauthn_challenges (challenge, purpose, user_id, ip, created_at, expires_at) VALUES (?, 'authenticate', NULL, '203.0.113.1', ?, ?)")
      .bind(tag, at, at + 5 * 60 * 1000),
    db
      .prepare("INSERT INTO second_step_challenges (token_hash, user_id, method, options, created_at, expires_at) VALUES (?, ?, 'password', '{}', ?, ?)")
      .bind(tag, userId, at - 5 * 60 * 1000, at),
    db.prepare("INSERT INTO two_step_guesses (user_id, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO proof_guesses (user_id, ip, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO security_notices (user_id, kind, created_at) VALUES (?, 'recoveryCodes', ?)").bind(tag, at),
    db
      .prepare(
        `INSERT INTO operators (id, login, name, role, password_hash, password_salt, password_algo, password_params, created_at)
         VALUES (?1, ?1, 'Operator', 'support', 'h', 's', 'a', '{}', ?2)`,
      )
      .bind(`operator-${tag}`, at),
    db
      .prepare('INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)')
      .bind(tag, `operator-${tag}`, at - 12 * HOUR, at, at),
    db
      .prepare('INSERT INTO operator_challenges (token_hash, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .bind(tag, `operator-${tag}`, at - 5 * 60 * 1000, at),
    db.prepare("INSERT INTO operator_guesses (subject, kind, network, created_at) VALUES (?, 'password', '203.0.113.1', ?)").bind(tag, at),
    db
      .prepare('INSERT INTO operator_enrolments (token_hash, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .bind(tag, `operator-${tag}`, at - 24 * HOUR, at),
    db
      .prepare("INSERT INTO operator_webauthn_challenges (challenge, purpose, operator_id, created_at, expires_at) VALUES (?, 'register', ?, ?, ?)")
      .bind(tag, `operator-${tag}`, at - 5 * 60 * 1000, at),
    // The OpenID Provider's: a client and a grant for the rows that belong to one.
    db
      .prepare("INSERT INTO oidc_clients (id, name, redirect_uris, grant_types, scopes, created_at, updated_at) VALUES (?, 'App', '[]', '[]', '[]', ?, ?)")
      .bind(`client-${tag}`, at, at),
    db
      .prepare("INSERT INTO oidc_grants (id, client_id, user_id, scope, created_at) VALUES (?, ?, ?, 'openid', ?)")
      .bind(`grant-${tag}`, `client-${tag}`, userId, at),
    db.prepare("INSERT INTO oidc_token_calls (client_id, network, created_at) VALUES (?, '203.0.113.1', ?)").bind(tag, at),
    db.prepare("INSERT INTO oidc_requests (id, client_id, params, created_at, expires_at) VALUES (?, ?, '{}', ?, ?)").bind(tag, `client-${tag}`, at - 10 * 60 * 1000, at),
    db.prepare("INSERT INTO oidc_logout_requests (id, session_hash, created_at, expires_at) VALUES (?, 'h', ?, ?)").bind(tag, at - 10 * 60 * 1000, at),
    db
      .prepare("INSERT INTO oidc_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, created_at, expires_at) VALUES (?, ?, ?, 'https://a.example/cb', 'c', ?, ?)")
      .bind(tag, `grant-${tag}`, `client-${tag}`, at - 60_000, at),
    db.prepare('INSERT INTO oidc_refresh_tokens (token_hash, grant_id, created_at, expires_at) VALUES (?, ?, ?, ?)').bind(tag, `grant-${tag}`, at - 7 * DAY, at),
    db.prepare('INSERT INTO oidc_revoked_tokens (jti, expires_at) VALUES (?, ?)').bind(tag, at),
    db.prepare('INSERT INTO oidc_logout_sends (grant_id, client_id, created_at, next_at) VALUES (?, ?, ?, ?)').bind(`grant-${tag}`, tag, at, at),
    db.prepare("INSERT INTO delivery_attempts (send_id, channel, provider, outcome, created_at) VALUES (?, 'sms', 'aliyun', 'sent', ?)").bind(tag, at),
    db.prepare('INSERT INTO delivery_receipts_seen (receipt_key, created_at) VALUES (?, ?)').bind(tag, at),
    db
      .prepare("INSERT INTO delivery_fallbacks (token_hash, recipient, purpose, lang, created_at, expires_at) VALUES (?, '+8613900000000', 'login', 'en', ?, ?)")
      .bind(tag, at - 10 * 60 * 1000, at),
    db
      .prepare("INSERT INTO oauth_states (state_hash, browser_hash, method, purpose, created_at, expires_at) VALUES (?, 'b', 'qr', 'sign-in', ?, ?)")
      .bind(tag, at - 10 * 60 * 1000, at),
    db
      .prepare("INSERT INTO oauth_tickets (ticket_hash, browser_hash, provider, subject, created_at, expires_at) VALUES (?, 'b', 'wechat', 'u', ?, ?)")
      .bind(tag, at - 10 * 60 * 1000, at),
    db.prepare('INSERT INTO oauth_codes_seen (code_hash, created_at) VALUES (?, ?)').bind(tag, at),
  ];
}

/** The column of each table that holds the tag of rowsAt. */
const TAG_COLUMN: Record<string, string> = {
  tracking_events: 'event_id',
  client_errors: 'message',
  codes: 'recipient',
  login_links: 'recipient',
  handoff_jtis: 'jti',
  slider_challenges: 'session_id',
  sessions: 'token_hash',
  invitation_attempts: 'user_id',
  code_guesses: 'recipient',
  password_failures: 'subject',
  new_user_checks: 'subject',
  sign_ins: 'network',
  webauthn_challenges: 'challenge',
  second_step_challenges: 'token_hash',
  two_step_guesses: 'user_id',
  proof_guesses: 'user_id',
  security_notices: 'user_id',
  operator_sessions: 'token_hash',
  operator_challenges: 'token_hash',
  operator_guesses: 'subject',
  operator_enrolments: 'token_hash',
  operator_webauthn_challenges: 'challenge',
  oidc_token_calls: 'client_id',
  oidc_requests: 'id',
  oidc_logout_requests: 'id',
  oidc_codes: 'code_hash',
  oidc_refresh_tokens: 'token_hash',
  oidc_revoked_tokens: 'jti',
  oidc_logout_sends: 'client_id',
  delivery_attempts: 'send_id',
  delivery_receipts_seen: 'receipt_key',
  delivery_fallbacks: 'token_hash',
  oauth_states: 'state_hash',
  oauth_tickets: 'ticket_hash',
  oauth_codes_seen: 'code_hash',
};

/** The tags each table still holds. */
async function remaining(): Promise<Record<string, Set<string>>> {
  const db = env.env.DB;
  const tables = Object.keys(TAG_COLUMN);
  const results = await db.batch(tables.map((table) => db.prepare(`SELECT ${TAG_COLUMN[table]} AS tag FROM ${table}`)));
  return Object.fromEntries(tables.map((table, i) => [table, new Set((results[i]!.results as { tag: string }[]).map((row) => row.tag))]));
}

/** Which tables still hold the row tagged `tag`. */
const tablesHolding = (left: Record<string, Set<string>>, tag: string) => Object.keys(left).filter((table) => left[table]!.has(tag)).sort();

const ALL_TABLES = RETENTION.map((r) => r.table).sort();

describe('prune', () => {
  it('has a retention for every table that anonymous requests or spent secrets fill', () => {
    expect(ALL_TABLES).toEqual(
      [
        'client_errors',
        'code_guesses',
        'codes',
        'handoff_jtis',
        'invitation_attempts',
        'login_links',
        'new_user_checks',
        'password_failures',
        'second_step_challenges',
        'sessions',
        'sign_ins',
        'slider_challenges',
        'tracking_events',
        'webauthn_challenges',
        'two_step_guesses',
        'proof_guesses',
        'security_notices',
        'operator_sessions',
        'operator_challenges',
        'operator_guesses',
        'operator_enrolments',
        'operator_webauthn_challenges',
        'oidc_token_calls',
        'oidc_requests',
        'oidc_logout_requests',
        'oidc_codes',
        'oidc_refresh_tokens',
        'oidc_revoked_tokens',
        'oidc_logout_sends',
        'oauth_states',
        'oauth_tickets',
        'oauth_codes_seen',
        'delivery_attempts',
        'delivery_receipts_seen',
        'delivery_fallbacks',
      ].sort(),
    );
  });

  it('deletes each row one hour past its retention and keeps each row one hour short of it', async () => {
    const now = Date.UTC(2026, 8, 1, 12);
    // One table's old and new rows a batch: larger batches of these rows dropped the local D1 bridge on a busy machine.
    await env.env.DB.batch(rowsAt('keep-long', now - DAY - HOUR));
    for (let i = 0; i < RETENTION.length; i += 1) {
      await env.env.DB.batch(
        RETENTION.slice(i, i + 1).flatMap(({ table, keepMs }) => [...rowsAt(`old-${table}`, now - keepMs - HOUR), ...rowsAt(`new-${table}`, now - keepMs + HOUR)]),
      );
    }
    const deleted = await prune(env.env.DB, now);
    const left = await remaining();
    for (const { table } of RETENTION) {
      expect(tablesHolding(left, `old-${table}`), `old rows of the ${table} batch`).not.toContain(table);
      expect(tablesHolding(left, `new-${table}`), `new rows of the ${table} batch`).toContain(table);
      expect(deleted[table], table).toBeGreaterThan(0);
    }
    // Tracking and the sign-in history keep 90 days, client errors 30, codes 2 (the daily SMS budget counts them),
    // delivery tries 7 (the operators' view), receipts seen 2, logout sends 30, the rest a day: a row a day and an
    // hour old is gone only from the tables that keep a day.
    expect(tablesHolding(left, 'keep-long')).toEqual(['client_errors', 'codes', 'delivery_attempts', 'delivery_receipts_seen', 'oidc_logout_sends', 'sign_ins', 'tracking_events']);
  }, 90_000); // About 2,000 rows on a shared local D1: slow on a busy machine, not stuck.

  it('prunes event webhooks: delivered messages after 30 days, dead letters after 90, with their attempts; an event once none of its messages is left; never a pending one', async () => {
    const db = env.env.DB;
    const now = Date.UTC(2026, 10, 1, 12);
    const endpoint = `ep_prune_${Date.now()}`;
    await db
      .prepare(
        `INSERT INTO webhook_endpoints (id, url, event_types, sealed_secret, created_by_kind, created_by, created_at)
         VALUES (?, 'https://hooks.example.com/', '["prune.*"]', 'sealed', 'operator', 'op', ?)`,
      )
      .bind(endpoint, now - 200 * DAY)
      .run();
    // Each event fans out to the endpoint (migration 0450's trigger): one message each, made when the event was.
    const cases = [
      ['delivered-old', 'delivered', now - 30 * DAY - HOUR],
      ['delivered-new', 'delivered', now - 30 * DAY + HOUR],
      ['dead-old', 'dead', now - 90 * DAY - HOUR],
      ['dead-new', 'dead', now - 90 * DAY + HOUR],
      ['pending-old', 'pending', now - 120 * DAY],
    ] as const;
    for (const [tag, status, at] of cases) {
      await db.batch([
        db.prepare("INSERT INTO webhook_events (id, type, data, created_at) VALUES (?, 'prune.test', '{}', ?)").bind(`evt_${tag}`, at),
        db.prepare('UPDATE webhook_deliveries SET status = ?2, last_at = ?3, attempts = 1 WHERE event_id = ?1').bind(`evt_${tag}`, status, at),
        db.prepare("INSERT INTO webhook_attempts (delivery_id, at, answer_code, result, ok) SELECT id, ?2, 200, 'HTTP 200', 1 FROM webhook_deliveries WHERE event_id = ?1").bind(`evt_${tag}`, at),
      ]);
    }
    const left = async () => {
      const [events, deliveries, attempts] = await db.batch([
        db.prepare("SELECT id FROM webhook_events WHERE type = 'prune.test'"),
        db.prepare('SELECT e.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = ?').bind(endpoint),
        db.prepare('SELECT count(*) AS n FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)'),
      ]);
      return {
        events: (events!.results as { id: string }[]).map((r) => r.id.slice(4)).sort(),
        deliveries: (deliveries!.results as { id: string }[]).map((r) => r.id.slice(4)).sort(),
        orphanAttempts: (attempts!.results[0] as { n: number }).n,
      };
    };
    expect((await left()).deliveries).toEqual(cases.map(([tag]) => tag).sort());
    const deleted = await prune(db, now);
    // D1 counts the attempts deleted with their messages (ON DELETE CASCADE) in the messages' changes.
    expect(deleted.webhook_deliveries).toBeGreaterThanOrEqual(2);
    expect(deleted.webhook_events).toBe(2);
    expect(await left()).toEqual({ events: ['dead-new', 'delivered-new', 'pending-old'], deliveries: ['dead-new', 'delivered-new', 'pending-old'], orphanAttempts: 0 });
    await db.prepare('UPDATE webhook_endpoints SET removed_at = ? WHERE id = ?').bind(now, endpoint).run();
  });

  it('keeps the password failures of a network while its lock runs, however old the last failure', async () => {
    const now = Date.UTC(2026, 9, 1, 12);
    await env.env.DB.prepare(
      "INSERT INTO password_failures (subject, network, failures, locked_until, lock_count, updated_at) VALUES ('locked@example.com', '198.51.100.9', 20, ?1, 2, ?2)",
    )
      .bind(now + HOUR, now - 2 * DAY)
      .run();
    await prune(env.env.DB, now);
    expect((await remaining()).password_failures).toContain('locked@example.com');
    await prune(env.env.DB, now + 2 * HOUR + DAY);
    expect((await remaining()).password_failures).not.toContain('locked@example.com');
  });

  it('runs from the Cron Trigger: scheduled() prunes at the trigger time', async () => {
    const at = Date.UTC(2027, 0, 10, 3, 17);
    await env.env.DB.batch([...rowsAt('cron-old', at - retentionOf('tracking_events') - HOUR), ...rowsAt('cron-new', at - HOUR)]);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await worker.scheduled({ scheduledTime: at, cron: '17 * * * *', noRetry() {} } as ScheduledController, env.env);
    const left = await remaining();
    expect(tablesHolding(left, 'cron-old')).toEqual([]);
    expect(tablesHolding(left, 'cron-new')).toEqual(ALL_TABLES);
    expect(log).toHaveBeenCalledWith('pruned', expect.stringContaining('"tracking_events":'));
    log.mockRestore();
  });

  it('is scheduled hourly in every environment of wrangler.toml (beside the every-minute data-rights job)', () => {
    for (const name of [undefined, 'staging', 'production']) {
      const config = unstable_readConfig({ config: 'wrangler.toml', env: name });
      expect(config.triggers.crons, name ?? 'top level').toEqual(['17 * * * *', '* * * * *']);
    }
  });
});
