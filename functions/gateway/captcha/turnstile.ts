import type { SliderCheck } from '../../../src/schemas/auth';
import { configOf } from '../../config';
import { fetchText } from '../../outbound';
import { GatewayError } from '../errors';
import { insertChallengeRow, newCheckToken, normalizeSubject, SLIDER, signedCheck, type CaptchaEnv } from './service';
import { closeUnjudged, storeTurnstileVerdict, type SliderScene } from './db';
import { ERR } from '../../../src/schemas/error-codes';

/**
 * CAPTCHA_PROVIDER "turnstile": Cloudflare Turnstile's widget replaces the slider in the browser, and its
 * token is checked here with Turnstile's siteverify. A pass stores the same kind of challenge row (so the
 * same caps count it) and answers the same sliderCheck, so consumers such as consumeSliderCheck do not change.
 */
export type TurnstileEnv = CaptchaEnv;

/** What siteverify answers; only `success` decides, the error codes are for the log. */
interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
}

async function siteverify(env: TurnstileEnv, token: string, ip: string, idempotencyKey: string): Promise<boolean> {
  const { turnstileSecret, turnstileVerifyUrl, turnstileTimeout } = configOf(env);
  if (!turnstileSecret) throw new Error('TURNSTILE_SECRET is not set');
  const form = new FormData();
  form.append('secret', turnstileSecret);
  form.append('response', token);
  // Only a single address: an IPv6 client is known by its /64 and a call naming none by `unknown:…` (clientIp).
  if (ip && !ip.includes('/') && !ip.startsWith('unknown')) form.append('remoteip', ip);
  form.append('idempotency_key', idempotencyKey);
  let answer: SiteverifyAnswer;
  try {
    // A siteverify that has not answered within TURNSTILE_TIMEOUT_MS counts as down (CP0009), not as a failed check.
    const response = await fetchText(turnstileVerifyUrl, { method: 'POST', body: form }, turnstileTimeout);
    if (response.status !== 200) throw new Error(`siteverify answered ${response.status}`);
    answer = JSON.parse(response.text) as SiteverifyAnswer;
  } catch (error) {
    console.log(JSON.stringify({ event: 'turnstile_unavailable', error: String(error) }));
    throw new GatewayError(ERR.CAPTCHA_SERVICE_UNAVAILABLE);
  }
  if (answer.success !== true) console.log(JSON.stringify({ event: 'turnstile_failed', errors: answer['error-codes'] }));
  return answer.success === true;
}

/**
 * Verifies a Turnstile token for `subject` in `scene`. The row is stored (under the caps) before Cloudflare
 * is asked, so refused tokens count as failed verifies. CP0001 for a token Turnstile refuses, CP0009 when
 * siteverify is down or slow.
 */
export async function verifyTurnstile(
  env: TurnstileEnv,
  args: { scene: SliderScene; subject: string; token: string; ip: string; now: number },
): Promise<SliderCheck> {
  const subject = normalizeSubject(args.scene, args.subject);
  const { token: checkToken, hash } = await newCheckToken();
  const sessionId = crypto.randomUUID();
  await insertChallengeRow(env, { sessionId, scene: args.scene, subject, ip: args.ip, provider: 'turnstile', targetX: 0, pieceY: 0, now: args.now });
  let passed: boolean;
  try {
    passed = await siteverify(env, args.token, args.ip, sessionId);
  } catch (error) {
    // Nobody failed a check when the service was down: the row does not count as a failure.
    await closeUnjudged(env.DB, sessionId);
    throw error;
  }
  await storeTurnstileVerdict(env.DB, {
    sessionId,
    outcome: passed ? 'passed' : 'failed',
    checkHash: passed ? hash : null,
    checkExpiresAt: passed ? args.now + SLIDER.checkLifetimeMs : null,
  });
  if (!passed) throw new GatewayError(ERR.CAPTCHA_FAILED);
  return signedCheck(env, args.scene, sessionId, checkToken);
}
