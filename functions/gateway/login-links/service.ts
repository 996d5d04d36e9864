import { RESEND_WAIT_MS } from '../../../src/lib/resend-wait';
import type { Lang } from '../../../src/lib/lang';
import { GatewayError } from '../errors';
import { sha256Hex } from '../identity/passwords';
import { randomToken } from '../identity/tokens';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { ERR } from '../../../src/schemas/error-codes';
import { deleteLink, LINK_OF_AN_ACCOUNT, linkByHash, type LinkKind } from './db';
import { cappedInsert } from '../identity/db/limits';

/**
 * Sign-in links: one-time tokens that sign a person in without a password or code.
 *
 * - 'email_pass' (/pass_email_login): sent to the address of an existing account; lives 15 minutes.
 * - 'share' (/share_login): made by a signed-in person for their own account on another device; 10 minutes.
 *
 * The token is 32 bytes from the CSPRNG; D1 keeps its SHA-256 hex only. Using a link is one conditional
 * UPDATE, so a doubled click or two devices racing get one session between them, never two.
 */

export const LINK_LIFETIME_MS: Readonly<Record<LinkKind, number>> = { email_pass: 15 * 60 * 1000, share: 10 * 60 * 1000 };
/** Between two links for one address (or one sharer). */
export const LINK_RESEND_WAIT_MS = RESEND_WAIT_MS;
export const LINK_WINDOW_MS = 60 * 60 * 1000;
/** Links per address (or sharer) and per IP within LINK_WINDOW_MS. */
export const LINK_SUBJECT_CAP = 5;
export const LINK_IP_CAP = 20;

export interface IssueLinkArgs {
  kind: LinkKind;
  /** null: a decoy for an address with no account (recorded for the limits, never usable). */
  userId: string | null;
  /** What the limits count by: the e-mail address, or the sharer's user id. */
  subject: string;
  ip: string;
  now: number;
}

/**
 * Records a new link within the limits and returns its token. LK0010 inside the resend wait, LK0011 past a
 * cap. The limit checks and the INSERT are one statement (cappedInsert), so parallel requests cannot slip past them.
 */
export async function issueLink(db: D1Database, args: IssueLinkArgs): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken();
  const expiresAt = args.now + LINK_LIFETIME_MS[args.kind];
  const windowStart = args.now - LINK_WINDOW_MS;
  await cappedInsert(db, {
    table: 'login_links',
    row: { token_hash: await sha256Hex(token), kind: args.kind, user_id: args.userId, recipient: args.subject, ip: args.ip, created_at: args.now, expires_at: expiresAt },
    returning: 'token_hash',
    wait: { where: { recipient: args.subject, kind: args.kind }, since: args.now - LINK_RESEND_WAIT_MS, code: ERR.LINK_RESEND_WAIT },
    caps: [
      { where: { recipient: args.subject, kind: args.kind }, since: windowStart, max: LINK_SUBJECT_CAP, code: ERR.LINKS_CAPPED },
      { where: { ip: args.ip }, since: windowStart, max: LINK_IP_CAP, code: ERR.LINKS_CAPPED },
    ],
  });
  return { token, expiresAt };
}

/** Removes a link whose e-mail could not be sent: it reached nobody, so it counts against no cap and may be asked for again at once. */
export async function withdrawLink(db: D1Database, token: string): Promise<void> {
  await deleteLink(db, await sha256Hex(token));
}

/**
 * Uses a link of `kind`: its user id, or LK0001 (unknown or a decoy), LK0002 (expired), LK0003 (used).
 * Exactly one of any number of parallel uses gets the user id.
 */
export async function consumeLink(
  db: D1Database,
  kind: LinkKind,
  token: string,
  now: number,
  /** Told the account of a link refused as spent or expired, before the refusal is thrown. */
  refusedFor?: (userId: string) => Promise<void>,
): Promise<string> {
  const hash = await sha256Hex(token);
  const used = await consume<{ user_id: string }>(db, SINGLE_USE.loginLink, { token_hash: hash, kind }, now, {
    returning: 'user_id',
    also: LINK_OF_AN_ACCOUNT,
  });
  if (used) return used.user_id;
  const row = await linkByHash(db, hash, kind);
  if (!row || row.user_id === null) throw new GatewayError(ERR.LINK_INVALID);
  await refusedFor?.(row.user_id);
  if (row.used_at !== null) throw new GatewayError(ERR.LINK_ALREADY_USED);
  throw new GatewayError(ERR.LINK_EXPIRED);
}

/** The localised e-mail that carries a pass link. */
export function passLinkMessage(lang: Lang, url: string, minutes: number) {
  const form = { kind: 'signInLink' as const, lang };
  return lang === 'zh'
    ? {
        ...form,
        subject: '您的登录链接',
        text: `点击以下链接登录（${minutes} 分钟内有效，仅可使用一次）：\n${url}\n如非本人操作，请忽略本邮件，您的账号不会受到影响。`,
      }
    : {
        ...form,
        subject: 'Your sign-in link',
        text: `Open this link to sign in (it works once, within ${minutes} minutes):\n${url}\nIf you did not ask for it, ignore this e-mail; your account is safe.`,
      };
}
