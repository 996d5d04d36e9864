import * as z from 'zod/mini';
import type { ErrorCode } from './error-codes';

/**
 * The one rule for text a person types that other people are shown (names, nick names, contact names, passkey
 * names, company names; file names are stripped with it): no character that is not seen, or that changes how
 * the text around it reads.
 *
 * Refused: every control (Cc: C0, DEL, C1), every format character (Cf: bidirectional embeddings, overrides and
 * isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C, zero-width space, non-joiner
 * and joiner U+200B–U+200D, word joiner U+2060, invisible operators, U+FEFF, soft hyphen, tag characters…),
 * lone surrogates, and the letters and marks that draw nothing (Hangul fillers, Khmer inherent vowels,
 * combining grapheme joiner, braille blank, variation selectors).
 *
 * Emoji are kept whole: a zero-width joiner between two pictographs (👩‍💻, 👨‍👩‍👧) and the emoji/text variation
 * selectors U+FE0E/U+FE0F right after a pictograph or keycap base (❤️, 1️⃣) are allowed. Anywhere else (a joiner
 * between letters, a selector after a letter) they are refused. `emoji: false` refuses them everywhere: company
 * names, which are compared for duplicates, keep the stricter rule they always had.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\ufe00-\ufe0f\uffa0]/gu;
/** The joiner inside an emoji sequence: after a pictograph (with its skin tone or emoji selector), before one. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}\ufe0f]?)\u200d(?=\p{Extended_Pictographic})/uy;
/** A text or emoji presentation selector right after a pictograph or a keycap base. */
const EMOJI_SELECTOR = /(?<=[\p{Extended_Pictographic}#*0-9])[\ufe0e\ufe0f]/uy;

export type DisplayTextOptions = { emoji?: boolean };

/** Whether the refused-looking character at `at` is part of an emoji (sticky regexes: no copies of the text). */
function inEmoji(text: string, at: number): boolean {
  for (const pattern of [EMOJI_JOINER, EMOJI_SELECTOR]) {
    pattern.lastIndex = at;
    if (pattern.test(text)) return true;
  }
  return false;
}

/** The first character the rule refuses in `text`, or null when there is none. */
export function hiddenCharacterIn(text: string, { emoji = true }: DisplayTextOptions = {}): string | null {
  for (const match of text.matchAll(HIDDEN)) if (!emoji || !inEmoji(text, match.index)) return match[0];
  return null;
}

/** `text` without the characters the rule refuses (emoji kept whole), for names the person did not type here. */
export const stripHiddenCharacters = (text: string): string => text.replace(HIDDEN, (character, at: number) => (inEmoji(text, at) ? character : ''));

/** The issue message (and gateway code) of the rule; company names keep their own, older code. */
export const DISPLAY_TEXT_CODE = 'GW0422' satisfies ErrorCode;
export const COMPANY_NAME_CODE = 'CO0018' satisfies ErrorCode;
/** Every code the rule reports: the gateway answers one of these rather than GW0400 when it is among the issues. */
export const HIDDEN_CHARACTER_CODES: readonly ErrorCode[] = [COMPANY_NAME_CODE, DISPLAY_TEXT_CODE];

/**
 * The rule as a zod check: `checked(schema, displayText())`. Absent, null and empty values pass (other checks
 * say whether a value is required). The message is the code, so the gateway answers it and the form
 * shows the gateway's words (in the visitor's language) at the field the path names.
 */
export const displayText = /* @__NO_SIDE_EFFECTS__ */ <T extends string | null | undefined = string>(options: DisplayTextOptions & { code?: ErrorCode } = {}) =>
  z.refine<T>((value) => !value || hiddenCharacterIn(value, options) === null, { message: options.code ?? DISPLAY_TEXT_CODE });
