/**
 * The avatar of a person without a photo: initials from the real name and one of seven colours.
 * Initials: the first character when the name starts with a Chinese character ("王小明" → "王"); of a name of
 * several words, the first letters of its first and last words ("Chen Jing" → "CJ", issue 47); of one word, its
 * first two letters ("Anna" → "AN"); upper-cased. The colour is picked by the last character of the id, so
 * one person keeps one colour everywhere.
 */
export const AVATAR_COLOURS = ['#0f62ad', '#067647', '#b54708', '#7a2e9e', '#c4320a', '#0e7490', '#475467'] as const;

const CHINESE = /^[\u3400-\u9fff\uf900-\ufaff]/u;

export function avatarInitials(realName: string | null | undefined): string {
  const name = (realName ?? '').trim();
  if (!name) return '?';
  if (CHINESE.test(name)) return Array.from(name)[0]!;
  const words = name.split(/\s+/).map((word) => Array.from(word.replace(/[^\p{L}\p{N}]/gu, ''))).filter((word) => word.length);
  if (words.length > 1) return `${words[0]![0]}${words.at(-1)![0]}`.toUpperCase();
  const letters = Array.from(name.replace(/[^\p{L}\p{N}]/gu, ''));
  return (letters.length ? letters.slice(0, 2).join('') : Array.from(name).slice(0, 2).join('')).toUpperCase();
}

export function avatarColour(id: string | null | undefined): string {
  const last = Array.from(id ?? '').pop();
  if (!last) return AVATAR_COLOURS[0];
  return AVATAR_COLOURS[last.codePointAt(0)! % AVATAR_COLOURS.length]!;
}
