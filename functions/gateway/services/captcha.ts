import type { SliderChallenge, SliderCheck } from '../../../src/schemas/auth';
import { configOf } from '../../config';
import { GatewayError } from '../errors';
import { emailRecipient, phoneRecipientFromE164 } from './identity';
import { constantTimeEqual, hmacSha256, sha256Hex, toHex } from './passwords';

/**
 * Our own server-verified slider. The server draws a scene with a hole at a secret x, the browser
 * drags the piece there, and the server checks the position and the movement. A pass yields a sliderCheck
 * that one later call consumes (`sms/send` for scene 'sms', a risk-checked sign-in for scene 'login').
 *
 * Cloudflare Turnstile is the intended second provider (CAPTCHA_PROVIDER "turnstile"): its widget token
 * would be verified at https://challenges.cloudflare.com/turnstile/v0/siteverify in verifySlider's place,
 * and the same sliderCheck issued, so consumers such as consumeSliderCheck do not change.
 */
export const SLIDER = {
  /** The platform's slider is 380 wide (portal-spec.md §9; the client scales it to 310/375 of a phone's screen). */
  width: 380,
  height: 160,
  pieceSize: 44,
  /** How far (challenge pixels) the dropped piece may miss the hole. */
  tolerance: 5,
  challengeLifetimeMs: 2 * 60 * 1000,
  checkLifetimeMs: 5 * 60 * 1000,
} as const;

export type SliderScene = 'sms' | 'login';

/** The Worker's bindings: D1, and the typed configuration (configOf) for CAPTCHA_SECRET. */
export interface CaptchaEnv {
  DB: D1Database;
}

// The check's authority is its random token, stored hashed; the sign only lets us refuse a tampered check
// before touching D1. So a fixed dev key where the secret is unset weakens nothing that matters.
const DEV_CAPTCHA_SECRET = 'dev-only-captcha-secret';

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

const randomInt = (min: number, max: number) => min + (crypto.getRandomValues(new Uint32Array(1))[0]! % (max - min + 1));

/** `bytes` random bytes from the CSPRNG as base64url (16 bytes → 22 characters). */
function randomToken(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Creates and stores a challenge for `subject` in `scene`; the target x stays on the server. */
export async function createChallenge(
  env: CaptchaEnv,
  args: { scene: SliderScene; subject: string; now: number },
): Promise<SliderChallenge> {
  const { width, height, pieceSize } = SLIDER;
  const subject = normalizeSubject(args.scene, args.subject);
  const sessionId = randomToken(16);
  // The hole keeps clear of the piece's start (x 0) so a drag is always needed.
  const targetX = randomInt(pieceSize + 30, width - pieceSize - 10);
  const pieceY = randomInt(10, height - pieceSize - 10);
  await env.DB.prepare(
    `INSERT INTO slider_challenges (session_id, scene, subject, target_x, piece_y, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(sessionId, args.scene, subject, targetX, pieceY, args.now, args.now + SLIDER.challengeLifetimeMs)
    .run();
  const hue = randomInt(0, 359);
  return {
    sessionId,
    background: svgDataUrl(backgroundSvg(hue, targetX, pieceY)),
    piece: svgDataUrl(pieceSvg(hue)),
    pieceY,
    width,
    height,
    pieceSize,
  };
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
  toHex(await hmacSha256(configOf(env).captchaSecret ?? DEV_CAPTCHA_SECRET, `${scene}|${sessionId}|${token}`));

/**
 * Checks a drag against the challenge. Every challenge gets one verify: a miss kills it (CP0001, the client
 * asks for a new one); an unknown, expired or already tried one is CP0002. A pass answers the sliderCheck.
 */
export async function verifySlider(
  env: CaptchaEnv,
  args: { sessionId: string; x: number; trail: readonly (readonly [number, number])[]; now: number },
): Promise<SliderCheck> {
  // Claiming the single attempt first makes parallel verifies of one challenge yield at most one check.
  const challenge = await env.DB.prepare(
    `UPDATE slider_challenges SET attempts = attempts + 1
     WHERE session_id = ? AND attempts = 0 AND expires_at > ? RETURNING scene, target_x`,
  )
    .bind(args.sessionId, args.now)
    .first<{ scene: SliderScene; target_x: number }>();
  if (!challenge) throw new GatewayError('CP0002');
  const lastX = args.trail[args.trail.length - 1]?.[1] ?? Number.NaN;
  const onTarget = Math.abs(args.x - challenge.target_x) <= SLIDER.tolerance;
  // The trail must end where the piece was dropped, or a canned trail could accompany any x.
  const trailEndsThere = Math.abs(lastX - args.x) <= SLIDER.tolerance * 2;
  if (!onTarget || !trailEndsThere || !looksHuman(args.trail)) throw new GatewayError('CP0001');

  const token = randomToken(24);
  await env.DB.prepare('UPDATE slider_challenges SET check_hash = ?, check_expires_at = ? WHERE session_id = ?')
    .bind(await sha256Hex(token), args.now + SLIDER.checkLifetimeMs, args.sessionId)
    .run();
  return { scene: challenge.scene, sessionId: args.sessionId, sign: await sign(env, challenge.scene, args.sessionId, token), token };
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
  if (check.scene !== expected.scene) throw new GatewayError('CP0003');
  const signed = await sign(env, check.scene, check.sessionId, check.token);
  if (!constantTimeEqual(new TextEncoder().encode(signed), new TextEncoder().encode(check.sign.toLowerCase()))) {
    throw new GatewayError('CP0003');
  }
  let subject: string;
  try {
    subject = normalizeSubject(expected.scene, expected.subject);
  } catch {
    throw new GatewayError('CP0003');
  }
  const used = await env.DB.prepare(
    `UPDATE slider_challenges SET check_consumed_at = ?1
     WHERE session_id = ?2 AND check_hash = ?3 AND scene = ?4 AND subject = ?5
       AND check_consumed_at IS NULL AND check_expires_at > ?1
     RETURNING session_id`,
  )
    .bind(expected.now, check.sessionId, await sha256Hex(check.token), expected.scene, subject)
    .first();
  if (!used) throw new GatewayError('CP0003');
}

/** Development only (routes/dev.ts): the secret x of a live challenge, so browser tests can drag like a person. */
export async function revealTarget(db: D1Database, sessionId: string): Promise<number | null> {
  const row = await db.prepare('SELECT target_x FROM slider_challenges WHERE session_id = ?').bind(sessionId).first<{ target_x: number }>();
  return row?.target_x ?? null;
}

const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${btoa(svg)}`;

/** A jigsaw piece in a box of `s`: a body with a round tab on top and one on the right. */
function piecePath(s: number): string {
  const b = Math.round(s * 0.18);
  const body = s - b;
  const mid = body / 2;
  return [
    `M0,${b}`,
    `H${mid - b}`,
    `A${b},${b} 0 0 1 ${mid + b},${b}`,
    `H${body}`,
    `V${mid}`,
    `A${b},${b} 0 0 1 ${body},${mid + 2 * b}`,
    `V${s}`,
    'H0Z',
  ].join(' ');
}

function gradient(id: string, hue: number): string {
  return (
    `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue},70%,72%)"/>` +
    `<stop offset="1" stop-color="hsl(${(hue + 60) % 360},65%,48%)"/></linearGradient>`
  );
}

/** A gradient sky, rolling waves and a sun, with the hole's outline at (x, y). */
function backgroundSvg(hue: number, x: number, y: number): string {
  const { width: w, height: h, pieceSize: s } = SLIDER;
  const waves = [0.55, 0.7, 0.85]
    .map((level, i) => {
      const base = Math.round(h * level);
      const amp = randomInt(6, 16);
      const phase = randomInt(0, w);
      const points: string[] = [];
      for (let px = 0; px <= w; px += 20) points.push(`${px},${(base + amp * Math.sin((px + phase) / 45)).toFixed(1)}`);
      const fill = `hsla(${(hue + 150 + i * 20) % 360},55%,${45 - i * 8}%,0.55)`;
      return `<polygon fill="${fill}" points="0,${h} ${points.join(' ')} ${w},${h}"/>`;
    })
    .join('');
  const sun = `<circle cx="${randomInt(30, w - 30)}" cy="${randomInt(20, 50)}" r="${randomInt(14, 26)}" fill="hsla(${(hue + 30) % 360},90%,88%,0.8)"/>`;
  const hole =
    `<path transform="translate(${x},${y})" d="${piecePath(s)}" fill="rgba(0,0,0,0.45)" ` +
    `stroke="rgba(255,255,255,0.9)" stroke-width="1.5"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs>${gradient('g', hue)}</defs><rect width="${w}" height="${h}" fill="url(#g)"/>${sun}${waves}${hole}</svg>`
  );
}

// The piece has its own gradient, not a cut-out of the background: a cut-out would have to carry the
// background's offset, and with it the target x.
function pieceSvg(hue: number): string {
  const s = SLIDER.pieceSize;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">` +
    `<defs>${gradient('p', hue)}</defs>` +
    `<path d="${piecePath(s)}" fill="url(#p)" stroke="rgba(255,255,255,0.95)" stroke-width="1.5"/></svg>`
  );
}
