import type { Lang } from '../../../src/lib/lang';
import { GatewayError } from '../errors';
import { cappedInsert } from '../db/limits';
import { configOf } from '../../config';
import { codeMessage, deliver, type DeliveryEnv } from './delivery';
import { sha256Hex } from './passwords';

/**
 * One-time codes by SMS and e-mail (security baseline "One-time codes"). A code is stored only as a hash,
 * lives CODE_LIFETIME_MS, dies after MAX_TRIES wrong guesses, is single use, and only the newest code of a
 * recipient + purpose counts. Sending waits RESEND_WAIT_MS between codes and is capped per recipient and
 * per IP over SEND_WINDOW_MS.
 */
export const CODE_LIFETIME_MS = 5 * 60 * 1000;
export const MAX_TRIES = 5;
export const RESEND_WAIT_MS = 60 * 1000;
export const SEND_WINDOW_MS = 60 * 60 * 1000;
export const RECIPIENT_CAP = 10;
export const IP_CAP = 30;

/** 'login': quick login and registration (type 3); 'verify': everything else, such as a password reset (type 1). */
export type CodePurpose = 'login' | 'verify';
export type CodeChannel = 'sms' | 'email';

export const codePurposeOfType = (type: 1 | 3): CodePurpose => (type === 3 ? 'login' : 'verify');

/** The Worker's bindings; digits per code come from the typed configuration (CODE_LENGTH, 4 to 8). */
export type CodesEnv = DeliveryEnv;

/** `length` uniform random digits: bytes of 250 and above are drawn again, so no digit is favoured. */
export function generateCode(length: number): string {
  let code = '';
  while (code.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 250 && code.length < length) code += String(byte % 10);
    }
  }
  return code;
}

// Plain SHA-256 rather than a keyed HMAC so that consumeCode needs only the database: a stolen table could
// brute-force the live codes, but those die within 5 minutes, and reading D1 already grants far more.
const hashCode = (recipient: string, purpose: CodePurpose, code: string) => sha256Hex(`${recipient}|${purpose}|${code}`);

export interface IssueCodeArgs {
  /** E.164 phone (phoneRecipient) or lower-case e-mail (emailRecipient). */
  recipient: string;
  channel: CodeChannel;
  purpose: CodePurpose;
  /** The visitor's IP, from the edge's `x-client-ip` header. */
  ip: string;
  now: number;
  lang: Lang;
}

/**
 * Creates a code and delivers it. Throws CD0001 (data { retryAfter } in seconds) within RESEND_WAIT_MS of
 * the recipient's last code, CD0002 past the recipient cap, CD0003 past the IP cap, CD0020 when the
 * provider refuses (then the code is withdrawn, so the visitor may retry at once).
 */
export async function issueCode(env: CodesEnv, args: IssueCodeArgs): Promise<void> {
  const code = generateCode(configOf(env).codeLength);
  const hash = await hashCode(args.recipient, args.purpose, code);
  const windowStart = args.now - SEND_WINDOW_MS;
  const id = await cappedInsert(env.DB, {
    table: 'codes',
    row: {
      recipient: args.recipient,
      purpose: args.purpose,
      channel: args.channel,
      code_hash: hash,
      ip: args.ip,
      created_at: args.now,
      expires_at: args.now + CODE_LIFETIME_MS,
    },
    wait: { where: { recipient: args.recipient }, since: args.now - RESEND_WAIT_MS, code: 'CD0001' },
    caps: [
      { where: { recipient: args.recipient }, since: windowStart, max: RECIPIENT_CAP, code: 'CD0002' },
      { where: { ip: args.ip }, since: windowStart, max: IP_CAP, code: 'CD0003' },
    ],
  });

  const message = codeMessage(args.lang, code, CODE_LIFETIME_MS / 60_000);
  try {
    await deliver(env, { channel: args.channel, to: args.recipient, ...message }, args.now);
  } catch (error) {
    await env.DB.prepare('DELETE FROM codes WHERE id = ?').bind(id).run();
    throw error;
  }
}

export interface ConsumeCodeArgs {
  recipient: string;
  purpose: CodePurpose;
  code: string;
  now: number;
}

const LATEST = 'SELECT MAX(id) FROM codes WHERE recipient = ?1 AND purpose = ?2';

/**
 * Uses up the recipient's newest code for this purpose, atomically: of any number of parallel calls with
 * the right code exactly one returns. Throws CD0010 for a wrong code (counting a try; data { triesLeft }),
 * CD0011 when expired, CD0012 after MAX_TRIES wrong tries, CD0013 when no code was asked for, CD0014 when
 * it was already used.
 */
export async function consumeCode(db: D1Database, args: ConsumeCodeArgs): Promise<void> {
  const hash = await hashCode(args.recipient, args.purpose, args.code);
  const usable = `id = (${LATEST}) AND consumed_at IS NULL AND tries < ${MAX_TRIES} AND expires_at > ?3`;
  const used = await db
    .prepare(`UPDATE codes SET consumed_at = ?3 WHERE ${usable} AND code_hash = ?4 RETURNING id`)
    .bind(args.recipient, args.purpose, args.now, hash)
    .first();
  if (used) return;

  const missed = await db
    .prepare(`UPDATE codes SET tries = tries + 1 WHERE ${usable} AND code_hash <> ?4 RETURNING tries`)
    .bind(args.recipient, args.purpose, args.now, hash)
    .first<{ tries: number }>();
  if (missed) throw new GatewayError('CD0010', { triesLeft: MAX_TRIES - missed.tries });

  const latest = await db
    .prepare(`SELECT consumed_at, tries, expires_at FROM codes WHERE id = (${LATEST})`)
    .bind(args.recipient, args.purpose)
    .first<{ consumed_at: number | null; tries: number; expires_at: number }>();
  if (!latest) throw new GatewayError('CD0013');
  if (latest.consumed_at !== null) throw new GatewayError('CD0014');
  if (latest.tries >= MAX_TRIES) throw new GatewayError('CD0012');
  if (latest.expires_at <= args.now) throw new GatewayError('CD0011');
  // The row changed between the statements (a parallel guess); the attempt did not match.
  throw new GatewayError('CD0010', { triesLeft: Math.max(0, MAX_TRIES - latest.tries) });
}
