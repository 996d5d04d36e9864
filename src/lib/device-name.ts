/**
 * The browser and operating system a user agent names, in words a person recognises ("Chrome", "macOS"), for
 * the default name of a new passkey. Null where it names none we know; order matters (Edge and Opera also say
 * "Chrome", Chrome also says "Safari", Android also says "Linux").
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

const first = (table: [RegExp, string][], userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

export function deviceOf(userAgent: string): { browser: string | null; os: string | null } {
  return { browser: first(BROWSERS, userAgent), os: first(SYSTEMS, userAgent) };
}
