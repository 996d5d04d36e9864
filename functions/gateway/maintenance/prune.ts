import { pruneStatement } from './db';

/**
 * Old rows are deleted on a schedule (the Cron Trigger in wrangler.toml calls `prune` through the Worker's
 * `scheduled` handler), so anonymous writes and spent secrets cannot fill the one D1 database.
 *
 * Every retention is here, one line per table. A row is kept at least a day past the last moment it can
 * matter: most rate caps look back an hour, the daily SMS budget counts the codes of the last day, a sign-in
 * link is dead once used or expired, a hand-off jti only has to outlive its blob (60 s).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

interface Retention {
  table: string;
  /** SQL over ?1, the cutoff: rows it matches are old enough to go. */
  old: string;
  /** How long rows are kept past the time `old` compares. */
  keepMs: number;
  /** The unit of the table's times: most are epoch milliseconds, hand-off jtis epoch seconds. */
  unit?: 'ms' | 's';
}

export const RETENTION: readonly Retention[] = [
  { table: 'tracking_events', old: 'created_at < ?1', keepMs: 90 * DAY_MS },
  { table: 'client_errors', old: 'created_at < ?1', keepMs: 30 * DAY_MS },
  { table: 'codes', old: 'created_at < ?1', keepMs: 2 * DAY_MS },
  { table: 'code_guesses', old: 'created_at < ?1', keepMs: DAY_MS },
  { table: 'login_links', old: 'expires_at < ?1 OR used_at < ?1', keepMs: DAY_MS },
  { table: 'handoff_jtis', old: 'expires_at < ?1', keepMs: DAY_MS, unit: 's' },
  { table: 'slider_challenges', old: 'expires_at < ?1 AND (check_expires_at IS NULL OR check_expires_at < ?1)', keepMs: DAY_MS },
  { table: 'sessions', old: 'expires_at < ?1 OR revoked_at < ?1', keepMs: DAY_MS },
  { table: 'invitation_attempts', old: 'created_at < ?1', keepMs: DAY_MS },
  // A network quiet for a day starts from zero anyway; a lock (at most a day) is kept until it has run out.
  { table: 'password_failures', old: 'updated_at < ?1 AND (locked_until IS NULL OR locked_until < ?1)', keepMs: DAY_MS },
  { table: 'new_user_checks', old: 'created_at < ?1', keepMs: DAY_MS },
  // The person's sign-in history shows 90 days.
  { table: 'sign_ins', old: 'created_at < ?1', keepMs: 90 * DAY_MS },
  // A WebAuthn challenge is dead once used or expired (5 minutes); the per-network cap looks back an hour.
  { table: 'webauthn_challenges', old: 'created_at < ?1', keepMs: DAY_MS },
  // OpenID Provider (oidc/): token-endpoint caps look back a minute; requests and codes are dead once expired
  // (10 minutes, 60 s); a refresh token is kept until it expires (a spent one must still be recognised as
  // reused); a revoked access token a day past when it would have expired anyway; logout sends for a month.
  { table: 'oidc_token_calls', old: 'created_at < ?1', keepMs: DAY_MS },
  { table: 'oidc_requests', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oidc_logout_requests', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oidc_codes', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oidc_refresh_tokens', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oidc_revoked_tokens', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oidc_logout_sends', old: 'created_at < ?1', keepMs: 30 * DAY_MS },
  // Passkeys themselves are not pruned: one lives until its owner removes it or the account goes (foreign key).
  // A challenge is dead 5 minutes after it was made; wrong two-step codes count for an hour.
  { table: 'second_step_challenges', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'two_step_guesses', old: 'created_at < ?1', keepMs: DAY_MS },
  { table: 'proof_guesses', old: 'created_at < ?1', keepMs: DAY_MS },
  { table: 'security_notices', old: 'created_at < ?1', keepMs: DAY_MS },
  // An operator session is dead at its absolute end (12 hours) or revocation. audit_log is never pruned.
  { table: 'operator_sessions', old: 'expires_at < ?1 OR revoked_at < ?1', keepMs: DAY_MS },
  // Challenges live 5 minutes, guesses count for an hour, an enrolment link 24 hours.
  { table: 'operator_challenges', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'operator_guesses', old: 'created_at < ?1', keepMs: DAY_MS },
  { table: 'operator_enrolments', old: 'expires_at < ?1', keepMs: DAY_MS },
  // Operator WebAuthn challenges live 5 minutes (their passkeys stay until the operator goes).
  { table: 'operator_webauthn_challenges', old: 'expires_at < ?1', keepMs: DAY_MS },
  // The operators' delivery view looks back a day; a week leaves room to compare. Receipts arrive within a day.
  { table: 'delivery_attempts', old: 'created_at < ?1', keepMs: 7 * DAY_MS },
  { table: 'delivery_receipts_seen', old: 'created_at < ?1', keepMs: 2 * DAY_MS },
  { table: 'delivery_fallbacks', old: 'expires_at < ?1', keepMs: DAY_MS },
  // WeChat and WeCom (wechat/): flows live 10 minutes; WeChat's codes 5, so a day of seen codes is ample.
  { table: 'oauth_states', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oauth_tickets', old: 'expires_at < ?1', keepMs: DAY_MS },
  { table: 'oauth_codes_seen', old: 'created_at < ?1', keepMs: DAY_MS },
];

/**
 * Event webhooks (issue 45, migration 0450): a delivered message is kept 30 days (the user center and the console
 * list the recent ones), a dead letter 90 (it can be sent again until then); its attempts go with it. An event
 * goes once no delivery of it is left and it is 30 days old. A pending delivery is never pruned: its last retry
 * is 24 hours after the one before, and it then becomes delivered or dead.
 */
const WEBHOOK_DEAD_EXTRA_MS = 60 * DAY_MS;
export const WEBHOOK_RETENTION: readonly Retention[] = [
  {
    table: 'webhook_deliveries',
    old: `(status = 'delivered' AND coalesce(last_at, created_at) < ?1) OR (status = 'dead' AND coalesce(last_at, created_at) < ?1 - ${WEBHOOK_DEAD_EXTRA_MS})`,
    keepMs: 30 * DAY_MS,
  },
  { table: 'webhook_attempts', old: 'at < ?1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = webhook_attempts.delivery_id)', keepMs: 0 },
  { table: 'webhook_events', old: 'created_at < ?1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)', keepMs: 30 * DAY_MS },
];

/**
 * The local stand-in of WeChat and WeCom (wechat/stand-in.ts), pruned only when it is on (DEV_OUTBOX "true"):
 * its rows go once they are past their expiry, as WeChat forgets them. A code lives 5 minutes (then the stand-in
 * answers 40029 for it, used or not: the portal's own oauth_codes_seen still refuses a replay, WX0003); an access
 * token its expires_at (2 hours). A person's profile grant (snsapi_userinfo) never expires at WeChat; the
 * stand-in forgets it after 30 days, after which that person is asked to allow the profile once more.
 */
export const STAND_IN_RETENTION: readonly Retention[] = [
  { table: 'dev_wechat_codes', old: 'created_at < ?1', keepMs: 5 * 60_000 },
  { table: 'dev_wechat_tokens', old: 'expires_at < ?1', keepMs: 0 },
  { table: 'dev_wechat_grants', old: 'created_at < ?1', keepMs: 30 * DAY_MS },
];

/** Rows deleted per table and run: a run stays short, and an hourly schedule still keeps up with any backlog. */
export const PRUNE_BATCH = 10_000;

/**
 * Deletes the rows past their retention at `now` (epoch ms); returns how many went, per table. `standIns`: the
 * local stand-ins are on (a deployment has no such rows, and may not have their tables' migrations applied).
 */
export async function prune(db: D1Database, now: number, { standIns = false }: { standIns?: boolean } = {}): Promise<Record<string, number>> {
  const retentions = [...RETENTION, ...WEBHOOK_RETENTION, ...(standIns ? STAND_IN_RETENTION : [])];
  const results = await db.batch(
    retentions.map(({ table, old, keepMs, unit }) => {
      const cutoff = now - keepMs;
      return pruneStatement(db, { table, old }, unit === 's' ? Math.floor(cutoff / 1000) : cutoff, PRUNE_BATCH);
    }),
  );
  return Object.fromEntries(retentions.map(({ table }, i) => [table, results[i]?.meta.changes ?? 0]));
}
