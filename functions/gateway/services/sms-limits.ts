import type { Cap } from '../db/limits';
import { GatewayError } from '../errors';

/**
 * SMS anti-pumping. A script that passes the human check could otherwise have us text premium or far-away
 * numbers at our cost, so SMS sends are capped per destination calling code per hour (CD0004) and in total
 * per rolling day (CD0005). Both are counted over the sent codes in the statement that records a new one, so
 * a parallel burst cannot overshoot them. Each refusal writes one warning starting `sms budget exhausted`
 * (with the calling code, never the number) for an operator's alert.
 */
export const SMS_HOUR_MS = 60 * 60 * 1000;
export const SMS_DAY_MS = 24 * SMS_HOUR_MS;

/** Used when wrangler.toml leaves the vars empty: the production values. */
export const DEFAULT_SMS_HOURLY_CAPS = '+86=600,*=20';
export const DEFAULT_SMS_DAILY_BUDGET = 5000;

export interface SmsLimitsEnv {
  /** "+CODE=N" entries and a "*=N" for every other calling code: SMS per destination calling code per hour. */
  SMS_HOURLY_CAPS?: string;
  /** SMS to all destinations per rolling 24 hours. */
  SMS_DAILY_BUDGET?: string;
}

export interface SmsLimits {
  /** SMS per hour to numbers under `callingCode` ('+44'). */
  hourlyCap(callingCode: string): number;
  dailyBudget: number;
}

const ENTRY = /^(\+\d{1,4}|\*)=(\d{1,9})$/;

/** The limits of this deployment. A malformed var is an Error (a 500): a budget must not fail open. */
export function smsLimits(env: SmsLimitsEnv): SmsLimits {
  const caps = new Map<string, number>();
  for (const entry of (env.SMS_HOURLY_CAPS || DEFAULT_SMS_HOURLY_CAPS).split(',')) {
    const match = ENTRY.exec(entry.trim());
    if (!match) throw new Error(`SMS_HOURLY_CAPS: "${entry}" is not "+CODE=N" or "*=N"`);
    caps.set(match[1]!, Number(match[2]));
  }
  const otherCodes = caps.get('*');
  if (otherCodes === undefined) throw new Error('SMS_HOURLY_CAPS needs a "*=N" entry for the calling codes it does not name');
  const budget = env.SMS_DAILY_BUDGET ? Number(env.SMS_DAILY_BUDGET) : DEFAULT_SMS_DAILY_BUDGET;
  if (!Number.isInteger(budget) || budget < 0) throw new Error(`SMS_DAILY_BUDGET: "${env.SMS_DAILY_BUDGET}" is not a whole number`);
  return { hourlyCap: (callingCode) => caps.get(callingCode) ?? otherCodes, dailyBudget: budget };
}

/** The caps of one SMS send for cappedInsert over the codes table. */
export function smsCaps(limits: SmsLimits, callingCode: string, now: number): Cap[] {
  return [
    { where: { calling_code: callingCode }, since: now - SMS_HOUR_MS, max: limits.hourlyCap(callingCode), code: 'CD0004' },
    { where: { channel: 'sms' }, since: now - SMS_DAY_MS, max: limits.dailyBudget, code: 'CD0005' },
  ];
}

/** Writes the operator's alert line when `error` is an SMS budget refusal. */
export function logSmsRefusal(error: unknown, limits: SmsLimits, callingCode: string): void {
  if (!(error instanceof GatewayError)) return;
  if (error.code === 'CD0004') {
    console.warn(`sms budget exhausted: calling code ${callingCode} reached its cap of ${limits.hourlyCap(callingCode)} per hour`);
  } else if (error.code === 'CD0005') {
    console.warn(`sms budget exhausted: the daily budget of ${limits.dailyBudget} is spent (refused a send to calling code ${callingCode})`);
  }
}
