import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkImoCompanyNumber, checkUscc, normaliseRegistryNumber, USCC_ALPHABET } from '../../src/schemas/registry-numbers';

/**
 * The check characters of issue 42 against vectors computed here from the standards' own statement of the rules
 * (a second, literal reading: the weights written out, not computed), not codes copied from blog posts.
 */

// GB 32100-2015 table: the weights 3^(i−1) mod 31, written out.
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const referenceCheck = (first17: string) => {
  const sum = [...first17].reduce((total, c, i) => total + USCC_ALPHABET.indexOf(c) * WEIGHTS[i]!, 0);
  const c = 31 - (sum % 31);
  return USCC_ALPHABET[c === 31 ? 0 : c]!;
};
// GB 11714: letters A = 10 … Z = 35.
const referenceOrganisation = (first8: string) => {
  const value = (c: string) => '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.indexOf(c);
  const sum = [...first8].reduce((total, c, i) => total + value(c) * [3, 7, 9, 10, 5, 8, 4, 2][i]!, 0);
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
};

const usccChar = fc.constantFrom(...USCC_ALPHABET);
const first17 = fc.array(usccChar, { minLength: 17, maxLength: 17 }).map((chars) => chars.join(''));
/** A code whose organisation code (characters 9–17) holds to GB 11714 too. */
const soundCode = fc.tuple(fc.array(usccChar, { minLength: 16, maxLength: 16 }).map((c) => c.join(''))).map(([head]) => {
  const organisation = head.slice(8, 16);
  const first = head + referenceOrganisation(organisation);
  return first17Valid(first) ? first + referenceCheck(first) : null;
});
/** The organisation check may be X, which the USCC alphabet has; '0'..'9' always are. */
function first17Valid(first: string) {
  return [...first].every((c) => USCC_ALPHABET.includes(c));
}

describe('unified social credit code (GB 32100-2015)', () => {
  it('passes the issue\'s example and refuses its altered form, naming the character that belongs there', () => {
    expect(checkUscc('91350100M000100Y43')).toMatchObject({ ok: true, organisationCodeOk: true });
    expect(checkUscc('91350100M000100Y4Z')).toEqual({ ok: false, code: '91350100M000100Y4Z', problem: 'checkCharacter', expected: '3' });
  });

  it('reads full-width characters, lower case, spaces and hyphens as the code', () => {
    expect(normaliseRegistryNumber(' ９１３５０１００ｍ000-100y43 ')).toBe('91350100M000100Y43');
    expect(checkUscc('９１３５０１００ｍ000 100y43')).toMatchObject({ ok: true });
  });

  it('names a wrong length and a character outside the alphabet (I, O, S, V, Z) with its position', () => {
    expect(checkUscc('91350100M000100Y4')).toMatchObject({ ok: false, problem: 'length', length: 17 });
    expect(checkUscc('91350100O000100Y43')).toMatchObject({ ok: false, problem: 'character', position: 9, character: 'O' });
    expect(checkUscc('9135010SM000100Y43')).toMatchObject({ ok: false, problem: 'character', position: 8, character: 'S' });
  });

  it('property: every 17 characters with the check character of the written-out weights pass; the 30 other last characters are refused with that one', () => {
    fc.assert(
      fc.property(first17, usccChar, (head, last) => {
        const expected = referenceCheck(head);
        const verdict = checkUscc(head + last);
        if (last === expected) expect(verdict.ok).toBe(true);
        else expect(verdict).toEqual({ ok: false, code: head + last, problem: 'checkCharacter', expected });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: any one character changed among the first 17 is caught (31 is prime, no weight is 0 mod 31)', () => {
    fc.assert(
      fc.property(first17, fc.integer({ min: 0, max: 16 }), usccChar, (head, at, replacement) => {
        fc.pre(head[at] !== replacement);
        const code = head + referenceCheck(head);
        const changed = code.slice(0, at) + replacement + code.slice(at + 1);
        expect(checkUscc(changed).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: the organisation code inside (GB 11714) is a warning, never a refusal', () => {
    fc.assert(
      fc.property(soundCode, (code) => {
        fc.pre(code !== null);
        expect(checkUscc(code!)).toMatchObject({ ok: true, organisationCodeOk: true });
      }),
    );
    fc.assert(
      fc.property(first17, (head) => {
        const verdict = checkUscc(head + referenceCheck(head));
        expect(verdict.ok).toBe(true);
        if (verdict.ok) expect(verdict.organisationCodeOk).toBe(head[16] === referenceOrganisation(head.slice(8, 16)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('IMO company number', () => {
  it('passes 2041999 and refuses 2041998, naming the digit that belongs there', () => {
    expect(checkImoCompanyNumber('2041999')).toEqual({ ok: true, number: '2041999' });
    expect(checkImoCompanyNumber('IMO 2041999')).toEqual({ ok: true, number: '2041999' });
    expect(checkImoCompanyNumber('2041998')).toEqual({ ok: false, number: '2041998', problem: 'checkDigit', expected: '9' });
    expect(checkImoCompanyNumber('204199')).toMatchObject({ ok: false, problem: 'format' });
    expect(checkImoCompanyNumber('20419A9')).toMatchObject({ ok: false, problem: 'format' });
  });

  it('property: of the ten last digits exactly one passes, the one of (11 − Σ dᵢ·wᵢ mod 11) mod 10', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 6 }), (digits) => {
        const sum = digits[0]! * 8 + digits[1]! * 6 + digits[2]! * 4 + digits[3]! * 2 + digits[4]! * 9 + digits[5]! * 7;
        const expected = (11 - (sum % 11)) % 10;
        const passing = Array.from({ length: 10 }, (_, last) => last).filter((last) => checkImoCompanyNumber(digits.join('') + last).ok);
        expect(passing).toEqual([expected]);
      }),
      { numRuns: 1000 },
    );
  });
});
