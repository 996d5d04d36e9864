import { callProvider, DeliveryFailure, jsonOf, statusFailure } from './failure';
import { required, type Provider } from './message';

/**
 * Twilio Programmable Messaging (numbers outside China): the message's text as the body, HTTP Basic with the
 * account SID and auth token. TWILIO_FROM is a sender number or a Messaging Service SID (MG…).
 */

/** Twilio error codes for a number that cannot take the message: invalid, not a mobile, opted out, unreachable region. */
const INVALID_NUMBER = new Set([21211, 21214, 21217, 21408, 21610, 21612, 21614]);

export const twilioSms: Provider = async ({ config, message, timeoutMs }) => {
  const sid = required(config.twilioAccountSid, 'TWILIO_ACCOUNT_SID');
  const from = required(config.twilioFrom, 'TWILIO_FROM');
  const form = new URLSearchParams({ To: message.to, Body: message.text, [from.startsWith('MG') ? 'MessagingServiceSid' : 'From']: from });
  const basic = btoa(`${sid}:${required(config.twilioAuthToken, 'TWILIO_AUTH_TOKEN')}`);
  const url = new URL(`/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, config.twilioApiUrl).toString();
  const answer = await callProvider(
    url,
    { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
    timeoutMs,
  );
  if (answer.status === 200 || answer.status === 201) return jsonOf<{ sid?: string }>(answer)?.sid ?? null;
  const code = jsonOf<{ code?: number }>(answer)?.code;
  if (answer.status === 400 && code !== undefined && INVALID_NUMBER.has(code)) throw new DeliveryFailure('invalid-recipient', `HTTP 400 ${code}`);
  throw statusFailure(answer, code === undefined ? '' : String(code));
};
