import type { Lang } from '../../../src/lib/lang';
import { ERR } from '../../../src/schemas/error-codes';
import { GatewayError } from '../errors';
import { newSecret, tokenHash } from '../identity/tokens';
import { insertFallbackTicket, spendFallbackTicket, verifiedEmailOfPhone } from './db';
import { issueCode, type CodePurpose, type CodesEnv } from './service';

/**
 * The person's way out when no SMS provider can send (DL0010). The failed SMS answer carries a ticket, the same
 * for every number, account or not; spending it sends a code for that number by e-mail to the account's
 * address when there is one, and otherwise to nobody (a decoy under the same caps), after the answer in both
 * cases. So neither the answer nor its timing says whether the number has an account, or an address.
 */
export const FALLBACK_TICKET_MS = 10 * 60 * 1000;

export async function issueFallbackTicket(db: D1Database, args: { recipient: string; purpose: CodePurpose; lang: Lang; now: number }): Promise<string> {
  const { token, hash } = await newSecret();
  await insertFallbackTicket(db, { tokenHash: hash, recipient: args.recipient, purpose: args.purpose, lang: args.lang, at: args.now, expiresAt: args.now + FALLBACK_TICKET_MS });
  return token;
}

/** Spends the ticket (DL0011 when it is unknown, used or expired) and sends the e-mailed code, if any, in the background. */
export async function emailInstead(
  env: CodesEnv,
  args: { ticket: string; ip: string; now: number; traceId: string | null; background: (work: Promise<void>) => void },
): Promise<void> {
  const ticket = await spendFallbackTicket(env.DB, await tokenHash(args.ticket), args.now);
  if (!ticket) throw new GatewayError(ERR.DELIVERY_FALLBACK_EXPIRED);
  const email = await verifiedEmailOfPhone(env.DB, ticket.recipient);
  await issueCode(env, {
    recipient: ticket.recipient,
    channel: 'sms',
    purpose: ticket.purpose as CodePurpose,
    ip: args.ip,
    now: args.now,
    lang: ticket.lang as Lang,
    traceId: args.traceId,
    deliver: email !== null,
    emailInstead: email ?? 'nobody@invalid',
    background: args.background,
  });
}
