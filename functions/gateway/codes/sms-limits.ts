import type { Config } from '../../config';
import type { Cap } from '../identity/db/limits';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * SMS anti-pumping. A script that passes the human check could otherwise have us text premium or far-away
 * numbers at our cost, so SMS sends are capped per destination calling code per hour (CD0004, SMS_HOURLY_CAPS)
 * and in total per rolling day (CD0005, SMS_DAILY_BUDGET). Both are counted over the sent codes in the
 * statement that records a new one, so a parallel burst cannot overshoot them. Each refusal writes one warning
 * starting `sms budget exhausted` (with the calling code, never the number) for an operator's alert.
 */
export const SMS_HOUR_MS = 60 * 60 * 1000;
export const SMS_DAY_MS = 24 * SMS_HOUR_MS;

type SmsConfig = Pick<Config, 'smsHourlyCaps' | 'smsDailyBudget'>;

/** SMS per hour to numbers under `callingCode` ('+44'). */
export const hourlyCap = (config: SmsConfig, callingCode: string) => config.smsHourlyCaps[callingCode] ?? config.smsHourlyCaps['*']!;

/** The caps of one SMS send for cappedInsert over the codes table. */
export function smsCaps(config: SmsConfig, callingCode: string, now: number): Cap[] {
  return [
    { where: { calling_code: callingCode }, since: now - SMS_HOUR_MS, max: hourlyCap(config, callingCode), code: ERR.SMS_PER_REGION_CAPPED },
    { where: { channel: 'sms' }, since: now - SMS_DAY_MS, max: config.smsDailyBudget, code: ERR.SMS_DAILY_BUDGET_SPENT },
  ];
}

/** Writes the operator's alert line when `error` is an SMS budget refusal. */
export function logSmsRefusal(error: unknown, config: SmsConfig, callingCode: string): void {
  if (!(error instanceof GatewayError)) return;
  if (error.code === ERR.SMS_PER_REGION_CAPPED) {
    console.warn(`sms budget exhausted: calling code ${callingCode} reached its cap of ${hourlyCap(config, callingCode)} per hour`);
  } else if (error.code === ERR.SMS_DAILY_BUDGET_SPENT) {
    console.warn(`sms budget exhausted: the daily budget of ${config.smsDailyBudget} is spent (refused a send to calling code ${callingCode})`);
  }
}
