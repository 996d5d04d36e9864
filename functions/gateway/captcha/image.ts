import { encode } from 'fast-png';

/**
 * The slider's pictures, drawn here as PNG rasters: the background with the hole already burnt into its
 * pixels, and the piece as a transparent strip as tall as the background. Nothing but pixels leaves the
 * server: no markup, attribute or number names where the hole is (a script has to do image analysis, and
 * every try still costs it a proof of work and one of its capped challenges).
 */

export interface SceneSize {
  width: number;
  height: number;
  pieceSize: number;
}

/** Uniform random integer in [min, max] from the CSPRNG. */
export const randomInt = (min: number, max: number) => min + (crypto.getRandomValues(new Uint32Array(1))[0]! % (max - min + 1));

/** Pixel noise: a whole buffer of random bytes at once (one CSPRNG call per 64 KB, its limit). */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 65_536) crypto.getRandomValues(out.subarray(i, Math.min(length, i + 65_536)));
  return out;
}

/**
 * How much of the pixel (px, py) lies in a jigsaw piece of size `s` at the origin, 0 to 1 with a one-pixel
 * soft edge: a body with a round tab on top and one on the right.
 */
function pieceCoverage(px: number, py: number, s: number): number {
  const b = Math.round(s * 0.18);
  const body = s - b;
  const mid = body / 2;
  const inBox = Math.min(px, body - px, py - b, s - py);
  const topTab = b - Math.hypot(px - mid, py - b);
  const rightTab = b - Math.hypot(px - body, py - (mid + b));
  const inside = Math.max(inBox, topTab, rightTab);
  return Math.max(0, Math.min(1, inside + 0.5));
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** Mixes `colour` into the pixel at `i` by `amount` (0 to 1). */
function mix(rgb: Float32Array, i: number, colour: readonly number[], amount: number) {
  for (let c = 0; c < 3; c++) rgb[i + c]! += (colour[c]! - rgb[i + c]!) * amount;
}

/** A sky gradient, three rolling waves, a sun and a few soft blobs, all under per-pixel noise. */
function paintScene(size: SceneSize, hue: number): Uint8Array {
  const { width: w, height: h } = size;
  const rgb = new Float32Array(w * h * 3);
  const top = hslToRgb(hue, 0.7, 0.72);
  const bottom = hslToRgb((hue + 60) % 360, 0.65, 0.48);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      const i = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) rgb[i + c] = top[c]! + (bottom[c]! - top[c]!) * t;
    }
  }
  const sun = { x: randomInt(30, w - 30), y: randomInt(20, 50), r: randomInt(14, 26), colour: hslToRgb((hue + 30) % 360, 0.9, 0.88) };
  for (let y = Math.max(0, sun.y - sun.r - 1); y <= Math.min(h - 1, sun.y + sun.r + 1); y++) {
    for (let x = Math.max(0, sun.x - sun.r - 1); x <= Math.min(w - 1, sun.x + sun.r + 1); x++) {
      const cover = Math.max(0, Math.min(1, sun.r - Math.hypot(x - sun.x, y - sun.y) + 0.5));
      if (cover > 0) mix(rgb, (y * w + x) * 3, sun.colour, cover * 0.8);
    }
  }
  for (const [i, level] of [0.55, 0.7, 0.85].entries()) {
    const base = h * level;
    const amp = randomInt(6, 16);
    const phase = randomInt(0, w);
    const colour = hslToRgb((hue + 150 + i * 20) % 360, 0.55, 0.45 - i * 0.08);
    for (let x = 0; x < w; x++) {
      const surface = base + amp * Math.sin((x + phase) / 45);
      for (let y = Math.max(0, Math.floor(surface)); y < h; y++) {
        mix(rgb, (y * w + x) * 3, colour, Math.min(1, y - surface + 0.5) * 0.55);
      }
    }
  }
  // Blobs the size of the piece, lighter and darker, so "the one odd patch" is not the hole by itself.
  for (let n = 0; n < 5; n++) {
    const blob = { x: randomInt(0, w), y: randomInt(0, h), r: randomInt(10, 24), shade: randomInt(0, 1) ? 28 : -22 };
    for (let y = Math.max(0, blob.y - blob.r); y < Math.min(h, blob.y + blob.r); y++) {
      for (let x = Math.max(0, blob.x - blob.r); x < Math.min(w, blob.x + blob.r); x++) {
        const d = Math.hypot(x - blob.x, y - blob.y);
        if (d >= blob.r) continue;
        const i = (y * w + x) * 3;
        for (let c = 0; c < 3; c++) rgb[i + c]! += blob.shade * (1 - d / blob.r);
      }
    }
  }
  // Grain in 2x2 cells: enough to defeat exact-colour tricks, coarse enough for the PNG to compress.
  const grain = noise(w * h);
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const n = (grain[(y >> 1) * w + (x >> 1)]! % 13) - 6;
      const i = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) out[i + c] = clamp(rgb[i + c]! + n);
    }
  }
  return out;
}

/** The hole at (x, y): darkened pixels with a light rim, burnt into `rgb`. */
function burnHole(rgb: Uint8Array, size: SceneSize, x: number, y: number) {
  const s = size.pieceSize;
  for (let py = 0; py < s; py++) {
    for (let px = 0; px < s; px++) {
      const cover = pieceCoverage(px + 0.5, py + 0.5, s);
      if (cover === 0) continue;
      const rim = cover < 1 || pieceCoverage(px - 1, py + 0.5, s) < 1 || pieceCoverage(px + 0.5, py - 1, s) < 1;
      const i = ((y + py) * size.width + (x + px)) * 3;
      for (let c = 0; c < 3; c++) {
        const v = rgb[i + c]!;
        rgb[i + c] = clamp(rim ? v + (230 - v) * 0.7 * cover : v * 0.55);
      }
    }
  }
}

/** The piece: its own gradient and noise (not a cut-out of the background, which template matching finds). */
function paintPiece(size: SceneSize, hue: number, y: number): Uint8Array {
  const { height: h, pieceSize: s } = size;
  const rgba = new Uint8Array(s * h * 4);
  const top = hslToRgb(hue, 0.7, 0.72);
  const bottom = hslToRgb((hue + 60) % 360, 0.65, 0.48);
  const grain = noise(s * s);
  for (let py = 0; py < s; py++) {
    for (let px = 0; px < s; px++) {
      const cover = pieceCoverage(px + 0.5, py + 0.5, s);
      if (cover === 0) continue;
      const rim = cover < 1 || pieceCoverage(px - 1, py + 0.5, s) < 1 || pieceCoverage(px + 0.5, py - 1, s) < 1;
      const t = (px + py) / (2 * s);
      const n = (grain[py * s + px]! % 17) - 8;
      const i = ((y + py) * s + px) * 4;
      for (let c = 0; c < 3; c++) rgba[i + c] = clamp(rim ? 245 : top[c]! + (bottom[c]! - top[c]!) * t + n);
      rgba[i + 3] = Math.round(255 * cover);
    }
  }
  return rgba;
}

const pngDataUrl = (png: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < png.length; i += 0x8000) binary += String.fromCharCode(...png.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(binary)}`;
};

/** Decoy holes per picture. */
export const DECOYS = 2;
/** How far (pixels) a decoy sits above or below the hole at least: a person sees it is off the piece's row. */
export const DECOY_MIN_DY = 18;

/**
 * Where the decoys go: holes of the very shape and shading of the real one, so "find the piece-shaped dark
 * patch" finds three and picks the wrong one two times in three. Each is at least DECOY_MIN_DY above or below
 * the piece's row (it still overlaps the row's band, so a search limited to the band meets it too) and clear
 * of the real hole and of each other sideways. A person slides the piece along its row and sees which gap fits.
 */
export function decoyPlaces(size: SceneSize, holeX: number, holeY: number, xRange: { min: number; max: number }): { x: number; y: number }[] {
  const s = size.pieceSize;
  const places: { x: number; y: number }[] = [];
  const clear = (x: number) => [holeX, ...places.map((p) => p.x)].every((other) => Math.abs(other - x) >= s + 4);
  for (let tries = 0; places.length < DECOYS && tries < 200; tries++) {
    // From the real hole's own range, so "where holes may be" does not tell them apart either.
    const x = randomInt(xRange.min, xRange.max);
    const y = randomInt(2, size.height - s - 2);
    if (Math.abs(y - holeY) >= DECOY_MIN_DY && clear(x)) places.push({ x, y });
  }
  return places;
}

/** Both pictures of a challenge whose hole is at (holeX, holeY) and decoys within `xRange`, as PNG data URLs. */
export function drawSlider(size: SceneSize, holeX: number, holeY: number, xRange: { min: number; max: number }): { background: string; piece: string } {
  const hue = randomInt(0, 359);
  const scene = paintScene(size, hue);
  burnHole(scene, size, holeX, holeY);
  for (const decoy of decoyPlaces(size, holeX, holeY, xRange)) burnHole(scene, size, decoy.x, decoy.y);
  const background = encode({ width: size.width, height: size.height, data: scene, channels: 3, depth: 8 });
  const piece = encode({ width: size.pieceSize, height: size.height, data: paintPiece(size, hue, holeY), channels: 4, depth: 8 });
  return { background: pngDataUrl(background), piece: pngDataUrl(piece) };
}
