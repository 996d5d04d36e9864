import type { Lang } from '../../../src/lib/lang';
import type { SecondStep, SignInEntry } from '../../../src/schemas/security';
import { configOf } from '../../config';
import { cappedInsert, cappedInsertStatement } from '../identity/db/limits';
import { findUserById } from '../identity/db/people';
import { GatewayError } from '../errors';
import { deliver, type DeliveryEnv } from '../delivery';
import { deviceKey, parseDevice, type ClientInfo } from '../sessions/devices';
import { ERR } from '../../../src/schemas/error-codes';
import { insertSignInStatement, signInRowsSince, type SignInMethod } from './db';
import { noticeTime } from '../../../src/lib/notice-time';

/**
 * The sign-in history: one row per sign-in attempt of a known account (success or failure, by method), kept
 * 90 days (maintenance/prune.ts). A success is written in the same batch as its session (sign-in/service.ts
 * startSession); a failure where it is decided for a known account (a wrong password, a wrong or spent
 * one-time code, a spent or expired sign-in link). An attempt on a name with no account has no one to show
 * it to and is not kept.
 *
 * A success is marked new_device (new_country) when the account had signed in before, but never from this
 * device (country) within the kept 90 days. The INSERT decides that in the same statement, so of parallel
 * sign-ins from one new device exactly one is marked, and that one sends the notice.
 */

export const HISTORY_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
/** This many failures in a row (with no success between) are marked as a streak. */
export const FAILURE_STREAK = 3;

export interface SignInAttempt {
  userId: string;
  at: number;
  method: SignInMethod;
  /** The second step passed after the method (a success only); absent when none was asked. */
  secondStep?: SecondStep | null;
  partner: boolean;
  success: boolean;
  client: ClientInfo;
}

/** The INSERT of one attempt; as a success it RETURNs `new_device` (1 when this sign-in must send the notice). */
export function signInStatement(db: D1Database, attempt: SignInAttempt): D1PreparedStatement {
  const { userId, at, method, secondStep = null, partner, success, client } = attempt;
  return insertSignInStatement(db, {
    userId,
    at,
    method,
    secondStep,
    partner,
    success,
    country: client.country,
    network: client.network,
    userAgent: client.userAgent,
    device: deviceKey(client.userAgent),
  });
}

/**
 * Failures kept per account per hour. The refusals themselves are limited per method (password lock, code tries,
 * ...), but a spent sign-in link can be replayed without end: past this cap a refusal is still refused, only
 * no longer written, so no one can fill an account's history (or the database) with refusals.
 */
export const FAILURES_KEPT_PER_HOUR = 30;
const HOUR_MS = 60 * 60 * 1000;

/** Records a refused attempt on a known account (up to FAILURES_KEPT_PER_HOUR). */
export async function recordFailedSignIn(db: D1Database, { userId, at, method, partner, client }: Omit<SignInAttempt, 'success'>): Promise<void> {
  try {
    await cappedInsert(db, {
      table: 'sign_ins',
      row: {
        user_id: userId,
        created_at: at,
        method,
        partner: partner ? 1 : 0,
        success: 0,
        country: client.country,
        network: client.network,
        user_agent: client.userAgent,
        device: deviceKey(client.userAgent),
      },
      caps: [{ where: { user_id: userId, success: 0 }, since: at - HOUR_MS, max: FAILURES_KEPT_PER_HOUR, code: ERR.SIGN_IN_FAILURES_CAPPED }],
    });
  } catch (error) {
    if (!(error instanceof GatewayError && error.code === ERR.SIGN_IN_FAILURES_CAPPED)) throw error;
  }
}

/**
 * What an unknown name's failed password sign-in runs where a known account's writes its history row: the very
 * same statement (sign_ins' capped INSERT), whose cap of 0 writes nothing, so a known and an unknown name issue
 * the same statements in the same order around the answer (issue 48, class 10).
 */
export async function recordNoSignIn(db: D1Database, { at, method, partner, client }: Omit<SignInAttempt, 'success' | 'userId'>): Promise<void> {
  const statement = cappedInsertStatement(db, {
    table: 'sign_ins',
    row: {
      user_id: '',
      created_at: at,
      method,
      partner: partner ? 1 : 0,
      success: 0,
      country: client.country,
      network: client.network,
      user_agent: client.userAgent,
      device: deviceKey(client.userAgent),
    },
    caps: [{ where: { user_id: '', success: 0 }, since: at - HOUR_MS, max: 0, code: ERR.SIGN_IN_FAILURES_CAPPED }],
  });
  await statement.first();
}

/**
 * The localised notice of a sign-in from a new device; `link` opens the Security section of the user center.
 * Its template SMS form: when (its zone named, notice-time.ts) and on what device; the link does not fit a template.
 */
export function newDeviceMessage(lang: Lang, { when, device, country, link }: { when: string; device: string; country: string | null; link: string | null }) {
  const form = { kind: 'newDevice' as const, lang, params: { when, device } };
  if (lang === 'zh') {
    const where = country ? `，地区 ${country}` : '';
    return {
      ...form,
      subject: '新设备登录提醒',
      text: `您的账号于 ${when}在一台新设备上登录：${device}${where}。\n如果是您本人，无需处理。如果不是，请立即在安全设置中退出该设备并修改密码${link ? `：\n${link}` : '。'}`,
    };
  }
  const where = country ? ` in ${country}` : '';
  return {
    ...form,
    subject: 'New sign-in to your account',
    text: `Your account was signed in to from a new device on ${when}: ${device}${where}.\nIf this was you, there is nothing to do. If not, sign that device out and change your password in your security settings${link ? `:\n${link}` : '.'}`,
  };
}

const describe = (userAgent: string | null, lang: Lang) => {
  const { browser, os } = parseDevice(userAgent);
  const unknown = lang === 'zh' ? '未知设备' : 'unknown device';
  if (!browser && !os) return unknown;
  return [browser, os].filter(Boolean).join(lang === 'zh' ? '，' : ' on ');
};

/**
 * Sends the new-device notice to the account's e-mail, or by SMS where it has none, in `lang` (the language
 * of the sign-in, as codes are sent). The link is built on PORTAL_ORIGIN, never on a request header. A
 * refused delivery does not undo the sign-in.
 */
export async function sendNewDeviceNotice(env: DeliveryEnv, { userId, at, client, lang }: { userId: string; at: number; client: ClientInfo; lang: Lang }) {
  const user = await findUserById(env.DB, userId);
  const to = user?.email ? { channel: 'email' as const, to: user.email } : user?.phone_e164 ? { channel: 'sms' as const, to: user.phone_e164 } : null;
  if (!to) return;
  const origin = configOf(env).portalOrigin;
  const when = noticeTime(at, lang);
  const device = describe(client.userAgent, lang);
  const message = newDeviceMessage(lang, { when, device, country: client.country, link: origin ? `${origin}/user_center#security` : null });
  try {
    await deliver(env, { ...to, ...message }, { now: at });
  } catch (error) {
    console.error('new-device notice not delivered', error instanceof Error ? error.message : error);
  }
}

/** The account's last 90 days, newest first; a failure in a run of FAILURE_STREAK or more is marked. */
export async function signInHistory(db: D1Database, userId: string, now: number): Promise<SignInEntry[]> {
  const results = await signInRowsSince(db, userId, now - HISTORY_DAYS * DAY_MS);
  // Runs of failures, walked newest first: every member of a run of FAILURE_STREAK or more is marked.
  const inStreak = new Array<boolean>(results.length).fill(false);
  for (let start = 0; start < results.length; ) {
    let end = start;
    while (end < results.length && results[end]!.success === 0) end++;
    if (end - start >= FAILURE_STREAK) inStreak.fill(true, start, end);
    start = Math.max(end, start + 1);
  }
  return results.map((row, i) => ({
    at: row.created_at,
    method: row.method,
    secondStep: row.second_step,
    partner: row.partner === 1,
    success: row.success === 1,
    country: row.country,
    network: row.network,
    ...parseDevice(row.user_agent),
    newDevice: row.new_device === 1,
    newCountry: row.new_country === 1,
    failureStreak: inStreak[i]!,
  }));
}
