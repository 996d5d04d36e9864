import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imoCheckDigit, imoDigits, imoProblem, isUnLocode } from '../../src/lib/imo';

/** IMO ship numbers (issue 41): the rule of IMO Resolution A.1078(28), checked against vectors and as properties. */
describe('IMO ship numbers', () => {
  it('passes the published examples and refuses a changed last digit', () => {
    expect(imoProblem('9074729')).toBeNull();
    expect(imoProblem('7654329')).toBeNull();
    expect(imoProblem('IMO 9074729')).toBeNull();
    expect(imoProblem('9074728')).toEqual({ kind: 'checkDigit', expected: 9 });
    expect(imoProblem('907472')).toEqual({ kind: 'form' });
    expect(imoProblem('0074729')).toEqual({ kind: 'form' });
    expect(imoProblem('90747290')).toEqual({ kind: 'form' });
  });

  const firstSix = fc.integer({ min: 100_000, max: 999_999 }).map(String);

  it('a number ending in the digit its first six call for passes, with or without "IMO" before it', () => {
    fc.assert(
      fc.property(firstSix, fc.constantFrom('', 'IMO ', 'imo', ' IMO  '), (six, prefix) => {
        expect(imoProblem(`${prefix}${six}${imoCheckDigit(six)}`)).toBeNull();
        expect(imoDigits(`${prefix}${six}${imoCheckDigit(six)}`)).toBe(`${six}${imoCheckDigit(six)}`);
      }),
    );
  });

  it('every other last digit is refused, naming the right one', () => {
    fc.assert(
      fc.property(firstSix, fc.integer({ min: 1, max: 9 }), (six, shift) => {
        const right = imoCheckDigit(six);
        expect(imoProblem(`${six}${(right + shift) % 10}`)).toEqual({ kind: 'checkDigit', expected: right });
      }),
    );
  });

  it('one changed digit among the first six is caught unless its weight times the change is a multiple of ten', () => {
    fc.assert(
      fc.property(firstSix, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 9 }), (six, position, change) => {
        const digit = (Number(six[position]) + change) % 10;
        if (position === 0 && digit === 0) return;
        const changed = `${six.slice(0, position)}${digit}${six.slice(position + 1)}`;
        const weight = 7 - position;
        const caught = imoProblem(`${changed}${imoCheckDigit(six)}`) !== null;
        expect(caught).toBe((weight * (digit - Number(six[position]))) % 10 !== 0);
      }),
    );
  });

  it('knows a UN/LOCODE by its form', () => {
    expect(isUnLocode('CNSHA')).toBe(true);
    expect(isUnLocode('NLRTM')).toBe(true);
    expect(isUnLocode('cnsha')).toBe(false);
    expect(isUnLocode('CN1HA')).toBe(false);
  });
});
