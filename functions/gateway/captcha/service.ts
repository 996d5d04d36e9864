import { createChallenge as createPowChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { configOf, type Config } from '../../config';
import type { PowPayload, SliderChallenge, SliderCheck, SliderInput } from '../../../src/schemas/auth';
import { cappedInsert } from '../identity/db/limits';
import { GatewayError } from '../errors';
import { drawSlider, randomInt } from './image';
import { emailRecipient, phoneRecipientFromE164 } from '../identity/sign-in-names';
import { constantTimeEqual, hmacSha256, sha256Hex, toHex } from '../identity/passwords';
import { consume, SINGLE_USE } from '../identity/db/single-use';
import { ERR } from '../../../src/schemas/error-codes';
import { claimSliderTry, type SliderScene } from './db';

/**
 * Our own server-verified slider. The server draws a raster scene with a hole at a secret x, the browser
 * drags the piece there, and the server checks the position and the movement. Every verify also carries a
 * proof of work (ALTCHA, PBKDF2) for that very challenge, so each try costs a machine about a second of
 * CPU. A pass yields a sliderCheck that one later call consumes (`sms/send` for scene 'sms', a
 * risk-checked sign-in for scene 'login').
 *
 * With CAPTCHA_PROVIDER "turnstile" a Cloudflare Turnstile token takes the slider's place (verifyTurnstile,
 * captcha/turnstile.ts) and the same sliderCheck is issued, so consumers such as consumeSliderCheck do not change.
 */
export const SLIDER = {
  /** The platform's slider is 380 wide (portal-spec.md §9; the client scales it to 310/375 of a phone's screen). */
  width: 380,
  height: 160,
  pieceSize: 44,
  /**
   * How far (challenge pixels) the dropped piece may miss the hole: 7 of the 273 possible holes pass, so a
   * blind guess wins 2.6 % of tries, and tries are capped below. The keyboard's 4-pixel step always lands
   * within it.
   */
  tolerance: 3,
  challengeLifetimeMs: 2 * 60 * 1000,
  checkLifetimeMs: 5 * 60 * 1000,
} as const;

/** Where the hole's left edge may be: clear of the piece's start (x 0) so a drag is always needed. */
export const HOLE_X = { min: SLIDER.pieceSize + 16, max: SLIDER.width - SLIDER.pieceSize - 4 } as const;

/**
 * Caps per rolling hour, counted on the challenge rows: challenges issued (slider inits and Turnstile
 * verifies) and failed verifies, each per client network and per subject. The failure caps are the tight
 * ones: a subject's 5 failures an hour bound blind guessing of its slider to about 13 % an hour. Issuing is
 * looser per subject, since a person who keeps mistyping a password slides before every try.
 *
 * Per network, the 30 counts the challenges not passed (open or failed): an office or a port behind one NAT
 * address, whose people each pass their own check, is not stopped at 30 a morning. Passed ones count only
 * towards the network's ceiling of 300, and each pass cost its solver a proof of work. The per-subject caps stay
 * strict whatever the network.
 */
export const CAPTCHA_LIMITS = {
  windowMs: 60 * 60 * 1000,
  issuedPerNetwork: 30,
  issuedPerNetworkCeiling: 300,
  issuedPerSubject: 30,
  failedPerNetwork: 15,
  failedPerSubject: 5,
} as const;

/*
 * Proof-of-work tuning (CAPTCHA_POW_COST, CAPTCHA_POW_COUNTER in functions/config.ts): PBKDF2-SHA256 with
 * `cost` iterations per try, and a secret counter drawn from [counter / 2, counter] that the solver must reach,
 * so a solve takes 0.75 × counter × cost iterations on average. Most of the work is native hashing in the browser
 * too, so a script gains little over a phone. The defaults are calibrated to about 1 s median under the bench's
 * 4x CPU slowdown (`npm run bench`). Function and e2e tests make it trivial; a deployed Worker refuses anything
 * below POW_FLOOR (powProblems, the startup check), so a test setting cannot reach production by accident.
 */

/** The least work (cost × counter) a deployed Worker accepts: a quarter of the calibrated defaults. */
export const POW_FLOOR = 1_000_000;

/** The startup check's complaint about a proof of work too cheap for a deployed Worker (none with Turnstile). */
export function powProblems(config: Pick<Config, 'captchaProvider' | 'captchaPowCost' | 'captchaPowCounter'>): string[] {
  if (config.captchaProvider !== 'slider' || config.captchaPowCost * config.captchaPowCounter >= POW_FLOOR) return [];
  return [`CAPTCHA_POW_COST × CAPTCHA_POW_COUNTER must be at least ${POW_FLOOR} (a cheaper proof of work is for tests)`];
}

/** The Worker's bindings: D1, and the typed configuration (configOf) for CAPTCHA_SECRET. */
export interface CaptchaEnv {
  DB: D1Database;
}

// Only a local run (DEV_OUTBOX "true") may go without the CAPTCHA_SECRET secret; elsewhere the human
// check fails closed, since the proof of work's signature is what makes it unforgeable.
const DEV_CAPTCHA_SECRET = 'dev-only-captcha-secret';

function captchaSecret(env: CaptchaEnv): string {
  const config = configOf(env);
  const secret = config.captchaSecret || (config.devCaptchaSecret ? DEV_CAPTCHA_SECRET : '');
  if (!secret) throw new Error('CAPTCHA_SECRET is not set');
  return secret;
}

/**
 * The form a subject is bound under: scene 'sms' takes the phone as '+<calling code><number>' (spaces
 * allowed) and yields what phoneRecipient gives; scene 'login' takes a phone like that, an e-mail
 * (lower-cased) or a chain-partner user id (trimmed). Throws PH0001 / PH0002 for a malformed phone / e-mail.
 */
export function normalizeSubject(scene: SliderScene, subject: string): string {
  const value = subject.trim();
  if (scene === 'sms') return phoneRecipientFromE164(value);
  if (value.includes('@')) return emailRecipient(value);
  if (/^\+[\d\s,-]+$/.test(value)) return phoneRecipientFromE164(value);
  return value;
}

/** `bytes` random bytes from the CSPRNG as base64url (16 bytes → 22 characters). */
function randomToken(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Stores a challenge row for `subject`, in one statement with the hourly caps on issued challenges and on
 * failed verifies, per client network and per subject (CP0005 to CP0008).
 */
export async function insertChallengeRow(
  env: CaptchaEnv,
  row: { sessionId: string; scene: SliderScene; subject: string; ip: string; provider: 'slider' | 'turnstile'; targetX: number; pieceY: number; now: number },
): Promise<void> {
  const since = row.now - CAPTCHA_LIMITS.windowMs;
  await cappedInsert(env.DB, {
    table: 'slider_challenges',
    row: {
      session_id: row.sessionId,
      scene: row.scene,
      subject: row.subject,
      ip: row.ip,
      provider: row.provider,
      target_x: row.targetX,
      piece_y: row.pieceY,
      created_at: row.now,
      expires_at: row.now + SLIDER.challengeLifetimeMs,
    },
    returning: 'session_id',
    // Each refusal tells when the hour frees a place (data.retryAfter), so the dialog can say how long to wait.
    caps: [
      { where: { ip: row.ip, outcome: 'failed' }, since, max: CAPTCHA_LIMITS.failedPerNetwork, code: ERR.CAPTCHA_FAILURES_PER_NETWORK_CAPPED, tellWait: true },
      { where: { subject: row.subject, outcome: 'failed' }, since, max: CAPTCHA_LIMITS.failedPerSubject, code: ERR.CAPTCHA_FAILURES_PER_SUBJECT_CAPPED, tellWait: true },
      { where: { ip: row.ip }, except: { outcome: 'passed' }, since, max: CAPTCHA_LIMITS.issuedPerNetwork, code: ERR.CAPTCHAS_PER_NETWORK_CAPPED, tellWait: true },
      { where: { ip: row.ip }, since, max: CAPTCHA_LIMITS.issuedPerNetworkCeiling, code: ERR.CAPTCHAS_PER_NETWORK_CAPPED, tellWait: true },
      { where: { subject: row.subject }, since, max: CAPTCHA_LIMITS.issuedPerSubject, code: ERR.CAPTCHAS_PER_SUBJECT_CAPPED, tellWait: true },
    ],
  });
}

/** The proof of work's two HMAC keys, both from CAPTCHA_SECRET: the challenge's and the derived key's. */
const powSecrets = (env: CaptchaEnv) => {
  const secret = captchaSecret(env);
  return { hmacSignatureSecret: `${secret}|pow`, hmacKeySignatureSecret: `${secret}|pow-key` };
};

/** A signed proof-of-work challenge that names the slider challenge it belongs to. */
export async function powChallenge(env: CaptchaEnv, sessionId: string): Promise<SliderChallenge['pow']> {
  const { captchaPowCost: cost, captchaPowCounter: counter } = configOf(env);
  const challenge = await createPowChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost,
    counter: randomInt(Math.ceil(counter / 2), counter),
    deriveKey,
    data: { sessionId },
    ...powSecrets(env),
  });
  return { parameters: { ...challenge.parameters }, signature: challenge.signature ?? '' };
}

/** Whether `pow` is a solved proof of work that this server signed for the slider challenge `sessionId`. */
export async function powPasses(env: CaptchaEnv, sessionId: string, pow: PowPayload): Promise<boolean> {
  const parameters = pow.challenge.parameters as { data?: { sessionId?: unknown } };
  if (parameters.data?.sessionId !== sessionId) return false;
  try {
    const result = await verifySolution({
      challenge: pow.challenge as unknown as Parameters<typeof verifySolution>[0]['challenge'],
      solution: pow.solution,
      deriveKey,
      ...powSecrets(env),
    });
    return result.verified;
  } catch {
    // Malformed parameters (a wrong algorithm name, say) are a failed proof, not a server error.
    return false;
  }
}

/** Creates and stores a challenge for `subject` in `scene`; the hole's position stays on the server. */
export async function createChallenge(
  env: CaptchaEnv,
  args: { scene: SliderScene; subject: string; ip: string; now: number },
): Promise<SliderChallenge> {
  const { width, height, pieceSize } = SLIDER;
  const subject = normalizeSubject(args.scene, args.subject);
  const sessionId = randomToken(16);
  const targetX = randomInt(HOLE_X.min, HOLE_X.max);
  const pieceY = randomInt(10, height - pieceSize - 10);
  await insertChallengeRow(env, { sessionId, scene: args.scene, subject, ip: args.ip, provider: 'slider', targetX, pieceY, now: args.now });
  const { background, piece } = drawSlider(SLIDER, targetX, pieceY, HOLE_X);
  return { provider: 'slider', sessionId, background, piece, width, height, pieceSize, pow: await powChallenge(env, sessionId) };
}

/**
 * Whether a keyboard run is well formed: at least one step, time never running backwards. Its pace is not
 * judged: a held key, a switch device or voice control moves at an even pace (WCAG 2.1.1, 2.5.7). A script can
 * claim to be a keyboard, so what a pass costs it is the proof of work and the caps, not this.
 */
export function keyboardRun(trail: readonly (readonly [number, number])[]): boolean {
  if (trail.length === 0) return false;
  for (let i = 1; i < trail.length; i++) if (trail[i]![0] < trail[i - 1]![0]) return false;
  return true;
}

/**
 * Whether a drag looks like a person's: at least 5 samples over at least 250 ms, time never running
 * backwards, x ending well right of where it started, and a speed that varies (a script's drag is often
 * perfectly linear). `trail` is [ms since start, x] pairs.
 */
export function looksHuman(trail: readonly (readonly [number, number])[]): boolean {
  if (trail.length < 5) return false;
  const first = trail[0]!;
  const last = trail[trail.length - 1]!;
  if (last[0] - first[0] < 250 || last[1] - first[1] < 10) return false;
  const speeds: number[] = [];
  for (let i = 1; i < trail.length; i++) {
    const dt = trail[i]![0] - trail[i - 1]![0];
    if (dt < 0) return false;
    if (dt > 0) speeds.push((trail[i]![1] - trail[i - 1]![1]) / dt);
  }
  if (speeds.length < 4) return false;
  const mean = speeds.reduce((a, b) => a + b, 0) / speeds.length;
  const spread = Math.sqrt(speeds.reduce((a, s) => a + (s - mean) ** 2, 0) / speeds.length);
  return spread > Math.abs(mean) * 0.05;
}

const sign = async (env: CaptchaEnv, scene: string, sessionId: string, token: string) =>
  toHex(await hmacSha256(captchaSecret(env), `${scene}|${sessionId}|${token}`));

/** A new single-use check token: the token for the client, its hash for D1. */
export async function newCheckToken() {
  const token = randomToken(24);
  return { token, hash: await sha256Hex(token) };
}

/** The check a passed challenge answers; its sign lets consumers refuse a tampered one before touching D1. */
export const signedCheck = async (env: CaptchaEnv, scene: SliderScene, sessionId: string, token: string): Promise<SliderCheck> => ({
  scene,
  sessionId,
  sign: await sign(env, scene, sessionId, token),
  token,
});

/**
 * Checks a drag against the challenge. Without a proof of work solved for this challenge it is CP0004 (and
 * the challenge keeps its one try). Otherwise every challenge gets one verify: a miss kills it (CP0001,
 * the client asks for a new one) and counts towards the failure caps; an unknown, expired or already
 * tried one is CP0002. A pass answers the sliderCheck.
 */
export async function verifySlider(
  env: CaptchaEnv,
  args: { sessionId: string; x: number; trail: readonly (readonly [number, number])[]; pow: PowPayload; input?: SliderInput; now: number },
): Promise<SliderCheck> {
  if (!(await powPasses(env, args.sessionId, args.pow))) throw new GatewayError(ERR.HUMAN_CHECK_INCOMPLETE);
  const lastX = args.trail[args.trail.length - 1]?.[1] ?? Number.NaN;
  // The trail must end where the piece was dropped, or a canned trail could accompany any x.
  const trailEndsThere = Math.abs(lastX - args.x) <= SLIDER.tolerance * 2;
  const moved = trailEndsThere && (args.input === 'keyboard' ? keyboardRun(args.trail) : looksHuman(args.trail));
  const { token, hash } = await newCheckToken();
  // One statement claims the single try, judges the position and stores the check: of parallel verifies of
  // one challenge at most one gets this far.
  const claimed = await claimSliderTry(env.DB, {
    moved,
    x: args.x,
    tolerance: SLIDER.tolerance,
    checkHash: hash,
    checkExpiresAt: args.now + SLIDER.checkLifetimeMs,
    sessionId: args.sessionId,
    now: args.now,
  });
  if (!claimed) throw new GatewayError(ERR.CAPTCHA_EXPIRED);
  if (claimed.outcome !== 'passed') throw new GatewayError(ERR.CAPTCHA_FAILED);
  return signedCheck(env, claimed.scene, args.sessionId, token);
}

/**
 * Uses up a passed slider check for `expected.scene` and `expected.subject` (normalised as in
 * normalizeSubject), atomically: of parallel calls with one check at most one returns. Throws CP0003 when
 * the check is forged, expired, used, or bound to another scene or subject.
 */
export async function consumeSliderCheck(
  env: CaptchaEnv,
  check: SliderCheck,
  expected: { scene: SliderScene; subject: string; now: number },
): Promise<void> {
  // Where CAPTCHA_PROVIDER "turnstile" plugs in, its checks are issued by the same table, so nothing changes here.
  if (check.scene !== expected.scene) throw new GatewayError(ERR.CAPTCHA_SLIDE_FAILED);
  const signed = await sign(env, check.scene, check.sessionId, check.token);
  if (!constantTimeEqual(new TextEncoder().encode(signed), new TextEncoder().encode(check.sign.toLowerCase()))) {
    throw new GatewayError(ERR.CAPTCHA_SLIDE_FAILED);
  }
  let subject: string;
  try {
    subject = normalizeSubject(expected.scene, expected.subject);
  } catch {
    throw new GatewayError(ERR.CAPTCHA_SLIDE_FAILED);
  }
  const used = await consume(
    env.DB,
    SINGLE_USE.sliderCheck,
    { session_id: check.sessionId, check_hash: await sha256Hex(check.token), scene: expected.scene, subject },
    expected.now,
    { returning: 'session_id' },
  );
  if (!used) throw new GatewayError(ERR.CAPTCHA_SLIDE_FAILED);
}

/** Local runs only (dev/routes.ts): where the slider's hole is, so end-to-end tests can pass it. */
export { revealTarget } from './db';
