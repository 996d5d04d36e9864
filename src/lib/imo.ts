/**
 * IMO ship identification numbers (IMO Resolution A.1078(28)): seven digits, the last a check digit. Each of the
 * first six digits is multiplied by its weight, 7 down to 2; the last digit of the sum is the check digit.
 * 9074729: 9×7 + 0×6 + 7×5 + 4×4 + 7×3 + 2×2 = 139, so 9.
 */

/** The seven digits of a typed IMO number ("IMO 9074729", " 9074729 "), or null when it is not one in form. */
export function imoDigits(input: string): string | null {
  const digits = input.trim().replace(/^IMO\s*/i, '');
  return /^[1-9]\d{6}$/.test(digits) ? digits : null;
}

/** The check digit the first six digits call for. */
export function imoCheckDigit(firstSix: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(firstSix[i]) * (7 - i);
  return sum % 10;
}

/**
 * Why a typed IMO number is refused: 'form' (not seven digits), or the check digit it should end with; null when
 * it is a valid IMO number.
 */
export function imoProblem(input: string): { kind: 'form' } | { kind: 'checkDigit'; expected: number } | null {
  const digits = imoDigits(input);
  if (!digits) return { kind: 'form' };
  const expected = imoCheckDigit(digits.slice(0, 6));
  return Number(digits[6]) === expected ? null : { kind: 'checkDigit', expected };
}

/** A UN/LOCODE in form: two letters of the country, three letters or digits 2-9 of the place. */
export const isUnLocode = (code: string) => /^[A-Z]{2}[A-Z2-9]{3}$/.test(code);
