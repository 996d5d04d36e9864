import { RESEND_WAIT_MS } from '../../../src/lib/resend-wait';
import type { Lang } from '../../../src/lib/lang';
import { GatewayError } from '../errors';
import { countTryStatement, latestCodeState, sentFromNetwork, useCode, useCodeStatements, withdrawCode, type CodeKey, type CountedTry } from './db';
import { guessInsert, withdrawGuess } from '../identity/db/guesses';
import { cappedInsert, cappedInsertStatement, whyRefused, type Cap } from '../identity/db/limits';
import { blockedRecipientStatement } from '../identity/db/people';
import { configOf } from '../../config';
import { afterTheAnswer, codeMessage, deliver, refusalWhileBreakersOpen, type DeliveryEnv } from '../delivery';
import { smsCallingCode } from '../identity/sign-in-names';
import { constantTimeEqual, sha256Hex } from '../identity/passwords';
import { logSmsRefusal, smsCaps } from './sms-limits';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * One-time codes by SMS and e-mail (security baseline "One-time codes"). A code is stored only as a hash,
 * lives CODE_LIFETIME_MS, dies after MAX_TRIES wrong guesses, is single use, and only the newest code of a
 * recipient + purpose counts. Sending waits RESEND_WAIT_MS between codes and is capped per recipient and
 * per client network over SEND_WINDOW_MS; SMS are also capped per destination calling code per hour and in
 * total per day (sms-limits.ts). Wrong guesses are capped per recipient and per client network over
 * GUESS_WINDOW_MS, across codes, so asking for a new code does not buy more guesses.
 */
export const CODE_LIFETIME_MS = 5 * 60 * 1000;
export const MAX_TRIES = 5;
export { RESEND_WAIT_MS };
export const SEND_WINDOW_MS = 60 * 60 * 1000;
export const RECIPIENT_CAP = 10;
export const IP_CAP = 30;
/**
 * Sends an hour from one client network that each carried a passed human check to a destination the network had
 * not been sent a code for in the hour ("proven"): they count here, not towards IP_CAP. Many people behind one
 * NAT address (an office, a port) each pass their own check; a script pays a proof of work per send, and the
 * per-recipient caps, the calling-code caps and the daily SMS budget hold whatever the network.
 */
export const NETWORK_CEILING = 300;
export const GUESS_WINDOW_MS = 60 * 60 * 1000;
/** Two codes' worth of wrong tries an hour: a person who mistypes gets a second code, a script gets 10 in 10^6. */
export const RECIPIENT_GUESS_CAP = 10;
/** As many wrong guesses as codes a network may ask for in the hour (IP_CAP), one per code. */
export const IP_GUESS_CAP = 30;

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
  /** The client network, from clientIp(c). */
  ip: string;
  now: number;
  lang: Lang;
  /** The edge's trace id, for the log line of a failed delivery. */
  traceId?: string | null;
  /**
   * False for a decoy: an unknown account gets a code that nobody receives, under the same waits, caps and
   * SMS budget as a real one, so every answer is the same and says nothing about whether the account exists.
   */
  deliver?: boolean;
  /**
   * A recipient whose account is blocked gets a decoy too (issue 33 item 10): the answer, the waits and the caps
   * are an unknown account's. Read in the insert's batch, so it costs no round trip of its own. While every
   * provider of the route is behind an open breaker the decoy answers what a real send does then (DL0010 for an SMS).
   */
  decoyWhenBlocked?: boolean;
  /**
   * Delivers after the answer (the route's `c.executionCtx.waitUntil`): the answer then takes as long for a
   * known recipient as for a decoy. A failed delivery is withdrawn in that task, as below, and only logged.
   */
  background?: (work: Promise<void>) => void;
  /** The send spent a passed human check bound to this recipient (an SMS send): see NETWORK_CEILING. */
  humanChecked?: boolean;
  /**
   * Deliver by e-mail to this address instead (the way out when no SMS provider can send: codes/fallback.ts).
   * The code is still the recipient's (a phone), so the phone sign-in takes it; no SMS is sent, so the SMS caps
   * and budget do not count it, while the recipient's caps and resend wait do.
   */
  emailInstead?: string;
}

/**
 * Creates a code and delivers it. Throws CD0001 (data { retryAfter } in seconds) within RESEND_WAIT_MS of
 * the recipient's last code, CD0002 past the recipient cap, CD0003 past the network cap, for SMS PH0001 for a
 * number that cannot take a text and CD0004 / CD0005 past the calling-code cap / daily budget, DL0010 when no
 * SMS provider of the list could send, and DL0001 /
 * DL0002 / DL0003 when the provider does not take the message (delivery/index.ts). A code whose delivery failed
 * is withdrawn: its row is what the resend wait and every send cap count, so deleting it means the failed send
 * counts against none of them and the visitor may retry at once. With `background` the send (and a failed
 * send's withdrawal) happens after the answer, which then cannot report DL0001/2/3: a person whose message
 * never came asks again, and meets no resend wait because the failed code was withdrawn.
 */
export async function issueCode(env: CodesEnv, args: IssueCodeArgs): Promise<void> {
  const config = configOf(env);
  const code = generateCode(config.codeLength);
  const windowStart = args.now - SEND_WINDOW_MS;
  // A proven send: a passed human check and a destination new to this network this hour. Parallel sends to one
  // recipient may all read "new" here, but the resend wait below lets only one of them in.
  const proven = args.humanChecked === true && !(await sentFromNetwork(env.DB, args.ip, args.recipient, windowStart));
  const caps: Cap[] = [
    { where: { recipient: args.recipient }, since: windowStart, max: RECIPIENT_CAP, code: ERR.CODES_PER_RECIPIENT_CAPPED },
    ...(proven ? [] : [{ where: { ip: args.ip, proven: 0 }, since: windowStart, max: IP_CAP, code: ERR.CODES_PER_NETWORK_CAPPED }]),
    { where: { ip: args.ip }, since: windowStart, max: NETWORK_CEILING, code: ERR.CODES_PER_NETWORK_CAPPED },
  ];
  const channel: CodeChannel = args.emailInstead ? 'email' : args.channel;
  const callingCode = channel === 'sms' ? smsCallingCode(args.recipient) : null;
  if (callingCode) caps.push(...smsCaps(config, callingCode, args.now));

  const spec = {
    table: 'codes',
    row: {
      recipient: args.recipient,
      purpose: args.purpose,
      channel,
      calling_code: callingCode,
      code_hash: await hashCode(args.recipient, args.purpose, code),
      ip: args.ip,
      proven: proven ? 1 : 0,
      created_at: args.now,
      expires_at: args.now + CODE_LIFETIME_MS,
    },
    wait: { where: { recipient: args.recipient }, since: args.now - RESEND_WAIT_MS, code: ERR.CODE_RESEND_WAIT },
    caps,
  };
  const insert = args.decoyWhenBlocked
    ? env.DB.batch([cappedInsertStatement(env.DB, spec), blockedRecipientStatement(env.DB, args.recipient)]).then(async ([inserted, blocked]) => {
        const row = inserted?.results[0] as { value: string | number } | undefined;
        if (!row) throw await whyRefused(env.DB, spec);
        return { id: row.value, blocked: (blocked?.results.length ?? 0) > 0 };
      })
    : cappedInsert(env.DB, spec).then((id) => ({ id, blocked: false }));
  const { id, blocked } = await insert.catch((error: unknown) => {
    if (callingCode) logSmsRefusal(error, config, callingCode);
    throw error;
  });
  const send = async () => {
    if (args.deliver === false || blocked) {
      // A decoy (a blocked account's code, or an unknown account's) answered now rather than in the background
      // answers as a real send would during an outage, and like a failed send it leaves no code behind (no resend
      // wait, no count against the caps).
      const refusal = args.background ? null : await refusalWhileBreakersOpen(env, { channel, to: args.emailInstead ?? args.recipient }, args.now);
      if (!refusal) return;
      await withdrawCode(env.DB, Number(id));
      throw refusal;
    }
    const message = codeMessage(args.lang, code, CODE_LIFETIME_MS / 60_000);
    try {
      await deliver(env, { channel, to: args.emailInstead ?? args.recipient, ...message }, { now: args.now, traceId: args.traceId });
    } catch (error) {
      await withdrawCode(env.DB, Number(id));
      throw error;
    }
  };
  // In the background, after the answer, a decoy runs the same (empty) task as a real code; the failure was logged by deliver.
  if (args.background) return args.background(afterTheAnswer().then(send).catch(() => undefined));
  await send();
}

/** Reads that go in consumeCode's first round trip (the account the code signs in to, say), before the guess. */
export interface ConsumeCodeReads {
  alsoRead?: D1PreparedStatement[];
  /** Called with their results as soon as they are there, before any refusal is thrown. */
  onRead?: (results: D1Result[]) => void;
}

export interface ConsumeCodeArgs {
  recipient: string;
  purpose: CodePurpose;
  code: string;
  /** The client network, from clientIp(c): wrong guesses are capped per network too. */
  ip: string;
  now: number;
}

/**
 * Uses up the recipient's newest code for this purpose. Each guess is first recorded under the wrong-guess
 * caps (CD0015 per recipient, CD0016 per network), then counted as a try on the code, and only then compared,
 * in constant time; so a burst of any size gets at most MAX_TRIES comparisons per code and at most
 * RECIPIENT_GUESS_CAP wrong guesses per recipient and hour, new codes or not. Of parallel right guesses
 * exactly one returns. Throws CD0010 for a wrong code (data { triesLeft }), CD0011 when expired, CD0012
 * after MAX_TRIES tries, CD0013 when no code was asked for, CD0014 when it was already used.
 */
export async function consumeCode(db: D1Database, args: ConsumeCodeArgs, reads: ConsumeCodeReads = {}): Promise<void> {
  await useCheckedCode(db, await checkCode(db, args, reads), args.now);
}

/** Uses a checked code on its own: CD0014 when a parallel call used it first (of right guesses exactly one wins). */
export async function useCheckedCode(db: D1Database, checked: CheckedCode, now: number): Promise<void> {
  if (!(await useCode(db, checked.codeId, checked.guessId, now))) throw new GatewayError(ERR.CODE_ALREADY_USED);
}

/** useCheckedCode's statements for the head of the caller's own batch, with usedCodeRefusal (codes/db.ts useCodeStatements). */
export const useCheckedCodeStatements = (db: D1Database, checked: CheckedCode, now: number) => useCodeStatements(db, checked.codeId, checked.guessId, now);

/**
 * useCheckedCode as the head of a sign-in's first read (the `spend` option of sign-in/service.ts SignInOptions): one
 * round trip for the code's use and the account's reads; CD0014 when a parallel call used the code first (of right
 * guesses exactly one wins).
 */
export function spendCheckedCode(db: D1Database, checked: CheckedCode, now: number): { statements: D1PreparedStatement[]; spent: (results: D1Result[]) => void } {
  const statements = useCheckedCodeStatements(db, checked, now);
  return {
    statements,
    // The use is the last of useCodeStatements (RETURNING id): a row only for the call that used the code.
    spent: (results) => {
      if ((results[statements.length - 1]?.results.length ?? 0) === 0) throw new GatewayError(ERR.CODE_ALREADY_USED);
    },
  };
}

/** A right guess at a code that is not used yet: what useCodeStatements needs to use it. */
export interface CheckedCode {
  codeId: number;
  guessId: number;
}

/**
 * consumeCode up to the use: the guess is logged, counted and compared exactly as there, and the code is left
 * for the caller to use in its own batch (codes/db.ts useCodeStatements), which saves a round trip. The caller
 * passes usedCodeRefusal to that batch: a parallel call that used the code first then answers CD0014.
 */
export async function checkCode(db: D1Database, args: ConsumeCodeArgs, { alsoRead = [], onRead }: ConsumeCodeReads = {}): Promise<CheckedCode> {
  const key: CodeKey = { recipient: args.recipient, purpose: args.purpose };
  const hash = await hashCode(args.recipient, args.purpose, args.code);
  const guess = guessInsert(
    'code',
    { subject: args.recipient, network: args.ip, at: args.now },
    { windowMs: GUESS_WINDOW_MS, perNetwork: { max: IP_GUESS_CAP, code: ERR.CODE_GUESSES_PER_NETWORK_CAPPED }, perSubject: { max: RECIPIENT_GUESS_CAP, code: ERR.CODE_GUESSES_PER_RECIPIENT_CAPPED } },
  );
  // One round trip, one transaction: the guess is logged under its caps and, only if the log let it in, counted
  // as a try on the newest code (the UPDATE checks the INSERT's changes()). Nothing runs between the two.
  const results = await db.batch([...alsoRead, cappedInsertStatement(db, guess), countTryStatement(db, key, args.now, MAX_TRIES, { onlyIfChanged: true })]);
  onRead?.(results.slice(0, alsoRead.length));
  const logged = results[alsoRead.length]?.results[0] as { value: number } | undefined;
  if (!logged) throw await whyRefused(db, guess);
  const guessId = Number(logged.value);

  const counted = (results[alsoRead.length + 1]?.results[0] as CountedTry | undefined) ?? null;
  if (!counted) {
    await withdrawGuess(db, 'code', guessId);
    throw await unusable(db, key, args.now);
  }
  if (!sameHash(counted.code_hash, hash)) throw new GatewayError(ERR.CODE_WRONG, { triesLeft: MAX_TRIES - counted.tries });
  return { codeId: counted.id, guessId };
}

/**
 * The refusal of a batch that began with useCodeStatements and lost the code to a parallel call: the row that
 * needed the code's use was not written, so a row that references it failed its foreign key (CD0014).
 */
export function usedCodeRefusal(error: unknown): GatewayError | null {
  const message = error instanceof Error ? error.message : '';
  return /FOREIGN KEY constraint failed/.test(message) ? new GatewayError(ERR.CODE_ALREADY_USED) : null;
}

const bytes = (hex: string) => new TextEncoder().encode(hex);
const sameHash = (stored: string, given: string) => constantTimeEqual(bytes(stored), bytes(given));

/** Why the newest code could not take a try. */
async function unusable(db: D1Database, key: CodeKey, now: number): Promise<GatewayError> {
  const latest = await latestCodeState(db, key);
  if (!latest) return new GatewayError(ERR.CODE_NOT_REQUESTED);
  if (latest.consumed_at !== null) return new GatewayError(ERR.CODE_ALREADY_USED);
  if (latest.tries >= MAX_TRIES) return new GatewayError(ERR.CODE_TRIES_SPENT);
  if (latest.expires_at <= now) return new GatewayError(ERR.CODE_EXPIRED);
  // A new code arrived between the statements; this guess was not compared with it.
  return new GatewayError(ERR.CODE_WRONG, { triesLeft: MAX_TRIES - latest.tries });
}
