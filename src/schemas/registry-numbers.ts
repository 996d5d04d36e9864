/**
 * Company registry numbers checked by their own rules (issue 42), with no zod and no I/O: the company form in the
 * browser, the gateway and the tests read the same functions.
 *
 * - The unified social credit code (统一社会信用代码), GB 32100-2015: 18 characters of the alphabet
 *   `0-9ABCDEFGHJKLMNPQRTUWXY` (31 characters: no I, O, S, V, Z); the 18th is the check character, weights
 *   3^(i−1) mod 31 over the first 17. A wrong check character is refused.
 * - The organisation code inside it (characters 9 to 17), GB 11714-1997: 8 characters and a check character,
 *   weights 3, 7, 9, 10, 5, 8, 4, 2, letters counting A = 10 … Z = 35, check 11 − (sum mod 11) with 10 written `X`
 *   and 11 written `0`. Some issuing authorities broke this rule, so a failure here alone is a warning.
 * - The IMO company number (IMO Unique Company and Registered Owner Identification Number Scheme): 7 digits, the
 *   seventh (11 − (Σ dᵢ·wᵢ mod 11)) mod 10 with weights 8, 6, 4, 2, 9, 7 over the first six.
 */

export const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
export const USCC_LENGTH = 18;
/** 3^(i−1) mod 31 for i = 1 … 17. */
export const USCC_WEIGHTS: readonly number[] = Array.from({ length: 17 }, (_, i) => {
  let w = 1;
  for (let k = 0; k < i; k++) w = (w * 3) % 31;
  return w;
});
export const ORGANISATION_CODE_WEIGHTS: readonly number[] = [3, 7, 9, 10, 5, 8, 4, 2];
export const IMO_COMPANY_WEIGHTS: readonly number[] = [8, 6, 4, 2, 9, 7];

/**
 * What a person typed, as the code is compared: compatibility forms (full-width letters and digits) become the
 * plain ones, letters upper case, spaces and hyphens gone.
 */
export const normaliseRegistryNumber = (text: string) => text.normalize('NFKC').toUpperCase().replace(/[\s\-‐‑–—]/g, '');

/** The check character of a code's first 17 characters (all of the alphabet). */
export function usccCheckCharacter(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += USCC_ALPHABET.indexOf(first17[i]!) * USCC_WEIGHTS[i]!;
  return USCC_ALPHABET[(31 - (sum % 31)) % 31]!;
}

/** The value of an organisation-code character: digits their value, letters A = 10 … Z = 35; -1 otherwise. */
const organisationValue = (c: string) => (/^[0-9]$/.test(c) ? Number(c) : /^[A-Z]$/.test(c) ? c.charCodeAt(0) - 55 : -1);

/** The check character of an organisation code's first 8 characters. */
export function organisationCodeCheckCharacter(first8: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += organisationValue(first8[i]!) * ORGANISATION_CODE_WEIGHTS[i]!;
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
}

export type UsccVerdict =
  /** `organisationCodeOk` false: the organisation code inside it fails GB 11714 (a warning, not a refusal). */
  | { ok: true; code: string; organisationCodeOk: boolean; expectedOrganisationCheck: string }
  | { ok: false; code: string; problem: 'length'; length: number }
  /** `position` is 1-based; `character` the one that is not of the alphabet. */
  | { ok: false; code: string; problem: 'character'; position: number; character: string }
  | { ok: false; code: string; problem: 'checkCharacter'; expected: string };

/** The unified social credit code at both levels (see above). */
export function checkUscc(text: string): UsccVerdict {
  const code = normaliseRegistryNumber(text);
  const characters = [...code];
  if (characters.length !== USCC_LENGTH) return { ok: false, code, problem: 'length', length: characters.length };
  // The 18th is compared with the check character whatever it is (a Z there is "should be 3", not "no Z").
  const bad = characters.slice(0, 17).findIndex((c) => !USCC_ALPHABET.includes(c));
  if (bad >= 0) return { ok: false, code, problem: 'character', position: bad + 1, character: characters[bad]! };
  const expected = usccCheckCharacter(code.slice(0, 17));
  if (code[17] !== expected) return { ok: false, code, problem: 'checkCharacter', expected };
  const expectedOrganisationCheck = organisationCodeCheckCharacter(code.slice(8, 16));
  return { ok: true, code, organisationCodeOk: code[16] === expectedOrganisationCheck, expectedOrganisationCheck };
}

export type ImoCompanyVerdict =
  | { ok: true; number: string }
  | { ok: false; number: string; problem: 'format' }
  | { ok: false; number: string; problem: 'checkDigit'; expected: string };

/** The check digit of an IMO company number's first six digits. */
export function imoCompanyCheckDigit(first6: string): string {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(first6[i]) * IMO_COMPANY_WEIGHTS[i]!;
  return String((11 - (sum % 11)) % 10);
}

/** An IMO company number: 7 digits (an `IMO` prefix is allowed and dropped), the last one its check digit. */
export function checkImoCompanyNumber(text: string): ImoCompanyVerdict {
  const number = normaliseRegistryNumber(text).replace(/^IMO/, '');
  if (!/^[0-9]{7}$/.test(number)) return { ok: false, number, problem: 'format' };
  const expected = imoCompanyCheckDigit(number.slice(0, 6));
  return number[6] === expected ? { ok: true, number } : { ok: false, number, problem: 'checkDigit', expected };
}
