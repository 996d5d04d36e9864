
/**
 * The one mechanism behind every single-use secret of the portal: one-time codes, second-step challenges
 * (people's and operators'), passkey ceremony challenges (people's and operators'), sign-in links, passed
 * slider checks, recovery codes, operator enrolment links, hand-off ids, and the OpenID Provider's authorization
 * requests, codes, refresh tokens and sign-outs waiting for the person, the WeChat states and binding tickets, and the
 * "This wasn't me" links of an e-mail change, and support codes and approvals of a support "view as". Each kind keeps its rows in a table
 * of its own (their columns differ); what it means to issue, count a try on, consume and reserve one is here.
 *
 * Race contract:
 * - `consume` is ONE UPDATE that marks the row used only while it is unused (and unexpired, when the kind
 *   expires) and returns it. Of any number of concurrent callers the first receives the row; every other
 *   caller, concurrent or later, receives null. A caller that wants to say *why* it got null reads the row
 *   afterwards (challenges.ts `challengeRow`, codes/db.ts `latestCodeState`), never before consuming: the
 *   decision is the UPDATE's alone. New secrets are made with tokens.ts `newSecret`.
 * - `countTry` is the same single UPDATE on the try counter: it counts only while the row is usable and has
 *   tries left, so of any burst at most `maxTries` guesses are ever compared.
 * - `reserve` inserts an id that may be seen once (ON CONFLICT DO NOTHING): true for the first insert, false
 *   for every other.
 * Secrets are stored only as SHA-256 hex (tokens.ts `newSecret`), so a database leak yields nothing usable.
 */
export interface SingleUseKind {
  table: string;
  /** The column set when the secret is spent (NULL until then). */
  used: string;
  /** The column of its end of life (epoch ms), when it has one. */
  expires?: string;
  /** The column counting tries, when wrong guesses are counted on the row. */
  tries?: string;
}

export const SINGLE_USE = {
  code: { table: 'codes', used: 'consumed_at', expires: 'expires_at', tries: 'tries' },
  secondStep: { table: 'second_step_challenges', used: 'used_at', expires: 'expires_at', tries: 'tries' },
  operatorSecondStep: { table: 'operator_challenges', used: 'used_at', expires: 'expires_at', tries: 'tries' },
  passkeyCeremony: { table: 'webauthn_challenges', used: 'used_at', expires: 'expires_at' },
  operatorPasskeyCeremony: { table: 'operator_webauthn_challenges', used: 'used_at', expires: 'expires_at' },
  loginLink: { table: 'login_links', used: 'used_at', expires: 'expires_at' },
  sliderCheck: { table: 'slider_challenges', used: 'check_consumed_at', expires: 'check_expires_at' },
  recoveryCode: { table: 'recovery_codes', used: 'used_at' },
  operatorEnrolment: { table: 'operator_enrolments', used: 'used_at', expires: 'expires_at', tries: 'tries' },
  // OpenID Connect (oidc/): a waiting authorization request, an authorization code, a refresh token (rotated).
  oidcRequest: { table: 'oidc_requests', used: 'used_at', expires: 'expires_at' },
  oidcCode: { table: 'oidc_codes', used: 'used_at', expires: 'expires_at' },
  oidcRefreshToken: { table: 'oidc_refresh_tokens', used: 'used_at', expires: 'expires_at' },
  // A sign-out that asks the person first (RP-initiated logout without a hint of this session).
  oidcLogout: { table: 'oidc_logout_requests', used: 'used_at', expires: 'expires_at' },
  deliveryFallback: { table: 'delivery_fallbacks', used: 'used_at', expires: 'expires_at' },
  // WeChat and WeCom (wechat/): a sign-in's state (bound to the browser), and the ticket of an unknown person.
  oauthState: { table: 'oauth_states', used: 'used_at', expires: 'expires_at' },
  oauthTicket: { table: 'oauth_tickets', used: 'used_at', expires: 'expires_at' },
  // "This wasn't me" after an e-mail change, sent to the old address (data-rights/service.ts undoEmailChange).
  contactUndo: { table: 'contact_undos', used: 'used_at', expires: 'expires_at' },
  // Support "view as" (issue 44, support/): the person's support code, and an administrator's approval without one.
  supportCode: { table: 'support_codes', used: 'used_at', expires: 'expires_at', tries: 'tries' },
  supportApproval: { table: 'support_approvals', used: 'used_at', expires: 'expires_at' },
} as const satisfies Record<string, SingleUseKind>;

type Value = string | number | null;
/** Column → value the row must have (NULL compares with IS). */
export type Match = Record<string, Value>;
/** A further condition in SQL with its own values (`?` placeholders), for what a column match cannot say. */
export type Also = { sql: string; binds: Value[] };

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** Table and column names come from code, never from a request; this keeps it that way. */
function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not an SQL identifier: ${name}`);
  return name;
}

/** An SQL fragment whose anonymous `?` are numbered after the values already in `binds` (its values appended). */
export function numbered(fragment: Also, binds: Value[]): string {
  // Fragments come from code: anonymous placeholders only, no string literals, one value per placeholder.
  if (/\?\d|['"]/.test(fragment.sql) || (fragment.sql.match(/\?/g)?.length ?? 0) !== fragment.binds.length) {
    throw new Error(`not a fragment of anonymous placeholders: ${fragment.sql}`);
  }
  let next = 0;
  return fragment.sql.replace(/\?/g, () => {
    binds.push(fragment.binds[next++] ?? null);
    return `?${binds.length}`;
  });
}

/** `WHERE` of a live row of `kind`: the match, unused, unexpired at ?1. Appends values to `binds` (?1 is `at`). */
function liveWhere(kind: SingleUseKind, match: Match, binds: Value[], also?: Also): string {
  const parts = Object.entries(match).map(([column, value]) => {
    binds.push(value);
    return `${identifier(column)} ${value === null ? 'IS' : '='} ?${binds.length}`;
  });
  parts.push(`${identifier(kind.used)} IS NULL`);
  if (kind.expires) parts.push(`${identifier(kind.expires)} > ?1`);
  if (also) parts.push(numbered(also, binds));
  return parts.join(' AND ');
}

/** The UPDATE that spends a live secret of `kind` matching `match`, returning `returning` (to run alone or in a batch). */
export function consumeStatement(
  db: D1Database,
  kind: SingleUseKind,
  match: Match,
  at: number,
  options: { returning?: string; also?: Also } = {},
): D1PreparedStatement {
  const binds: Value[] = [at];
  const where = liveWhere(kind, match, binds, options.also);
  return db
    .prepare(`UPDATE ${identifier(kind.table)} SET ${identifier(kind.used)} = ?1 WHERE ${where} RETURNING ${options.returning ?? '*'}`)
    .bind(...binds);
}

/** Spends a live secret: the row for the one caller that got it, null for every other (the race contract above). */
export function consume<T = Record<string, unknown>>(
  db: D1Database,
  kind: SingleUseKind,
  match: Match,
  at: number,
  options: { returning?: string; also?: Also } = {},
): Promise<T | null> {
  return consumeStatement(db, kind, match, at, options).first<T>();
}

/**
 * Counts a try on a live secret before a guess is compared: the row's `returning` (by default the tries so
 * far) while it is unused, unexpired and has fewer than `maxTries` tries; null otherwise.
 */
export function countTry<T = { tries: number }>(
  db: D1Database,
  kind: SingleUseKind & { tries: string },
  match: Match,
  at: number,
  maxTries: number,
  options: { returning?: string; also?: Also } = {},
): Promise<T | null> {
  return countTryStatement(db, kind, match, at, maxTries, options).first<T>();
}

/**
 * The UPDATE of countTry, to run in a batch. `onlyIfChanged`: it counts only when the statement before it in
 * the batch changed a row (a guess the guess log let in), in the same transaction.
 */
export function countTryStatement(
  db: D1Database,
  kind: SingleUseKind & { tries: string },
  match: Match,
  at: number,
  maxTries: number,
  options: { returning?: string; also?: Also; onlyIfChanged?: boolean } = {},
): D1PreparedStatement {
  const binds: Value[] = [at];
  const tries = identifier(kind.tries);
  const where = liveWhere(kind, match, binds, options.also);
  binds.push(maxTries);
  const changed = options.onlyIfChanged ? ' AND changes() = 1' : '';
  return db
    .prepare(`UPDATE ${identifier(kind.table)} SET ${tries} = ${tries} + 1 WHERE ${where} AND ${tries} < ?${binds.length}${changed} RETURNING ${options.returning ?? tries}`)
    .bind(...binds);
}

/** The INSERT that records an id as seen; its `meta.changes` is 1 for the first and 0 for every other. */
export function reserveStatement(db: D1Database, table: string, key: string, row: Record<string, Value>): D1PreparedStatement {
  const columns = Object.keys(row).map(identifier);
  return db
    .prepare(`INSERT INTO ${identifier(table)} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `?${i + 1}`).join(', ')}) ON CONFLICT (${identifier(key)}) DO NOTHING`)
    .bind(...Object.values(row));
}

/** Records an id as seen once: true for the first caller, false for every other. */
export async function reserve(db: D1Database, table: string, key: string, row: Record<string, Value>): Promise<boolean> {
  return (await reserveStatement(db, table, key, row).run()).meta.changes === 1;
}
