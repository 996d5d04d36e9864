import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { displayText, hiddenCharacterIn, stripHiddenCharacters } from '../../src/schemas/display-text';
import { companyFormFields, companyJoinRequest } from '../../src/schemas/onboarding';
import { updateUserInfoRequest } from '../../src/schemas/profile';
import { passkeyNameSchema } from '../../src/schemas/passkey-requests';
import { checked } from '../../src/schemas/checked';

const REFUSED: [string, string][] = [
  ['LRE', '\u202a'],
  ['RLE', '\u202b'],
  ['PDF', '\u202c'],
  ['LRO', '\u202d'],
  ['RLO', '\u202e'],
  ['LRI', '\u2066'],
  ['RLI', '\u2067'],
  ['FSI', '\u2068'],
  ['PDI', '\u2069'],
  ['LRM', '\u200e'],
  ['RLM', '\u200f'],
  ['ALM', '\u061c'],
  ['zero-width space', '\u200b'],
  ['zero-width non-joiner', '\u200c'],
  ['zero-width joiner', '\u200d'],
  ['word joiner', '\u2060'],
  ['invisible separator', '\u2063'],
  ['byte order mark', '\ufeff'],
  ['soft hyphen', '\u00ad'],
  ['Mongolian vowel separator', '\u180e'],
  ['tag letter', '\u{e0041}'],
  ['NUL', '\u0000'],
  ['tab', '\t'],
  ['line feed', '\n'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['C1 CSI', '\u009b'],
  ['Hangul filler', '\u3164'],
  ['half-width Hangul filler', '\uffa0'],
  ['combining grapheme joiner', '\u034f'],
  ['braille blank', '\u2800'],
  ['variation selector 1', '\ufe00'],
  ['lone surrogate', '\ud800'],
];

const ACCEPTED = ['张伟', '欧阳娜娜', 'Zoë Brontë', 'José Álvarez-Núñez', "O'Brien", 'Ng Wai-ming (吴伟明)', 'Søren Ørsted', 'محمد', 'Ελένη', 'Nguyễn Văn Anh', '李雷 👋', 'Ops 🚢⚓', '👩‍💻 Ana', '👨‍👩‍👧 family', '❤️ team', '1️⃣ desk', '👍🏽', '🏳️‍🌈', 'YubiKey 5C NFC'];

describe('the display-text rule', () => {
  it.each(REFUSED)('refuses %s', (_, character) => {
    for (const text of [`${character}Alice`, `Al${character}ice`, `Alice${character}`, `张${character}伟`]) expect(hiddenCharacterIn(text)).toBe(character);
  });

  it.each(ACCEPTED)('accepts %s', (name) => {
    expect(hiddenCharacterIn(name)).toBeNull();
  });

  it('keeps the joiner and emoji selector to emoji: between or after letters they are refused', () => {
    expect(hiddenCharacterIn('a\u200db')).toBe('\u200d');
    expect(hiddenCharacterIn('👩\u200db')).toBe('\u200d');
    expect(hiddenCharacterIn('a\u200d💻')).toBe('\u200d');
    expect(hiddenCharacterIn('a\ufe0f')).toBe('\ufe0f');
    expect(hiddenCharacterIn('👩\u200d\u200d💻')).toBe('\u200d');
  });

  it('without emoji (company names) refuses the joiner and selectors everywhere', () => {
    expect(hiddenCharacterIn('👩‍💻', { emoji: false })).toBe('\u200d');
    expect(hiddenCharacterIn('❤️', { emoji: false })).toBe('\ufe0f');
    expect(hiddenCharacterIn('Acme 中国', { emoji: false })).toBeNull();
  });

  it('strips what it refuses and keeps emoji whole', () => {
    expect(stripHiddenCharacters('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(stripHiddenCharacters('\u200b营业\u2066执照\u0000.pdf')).toBe('营业执照.pdf');
    expect(stripHiddenCharacters('👩‍💻 ❤️.png')).toBe('👩‍💻 ❤️.png');
  });

  it('is fast on a long hostile value', () => {
    const start = performance.now();
    expect(hiddenCharacterIn('👩\u200d💻 '.repeat(20_000) + '\u202e')).toBe('\u202e');
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it('reports its code as the zod issue message, on each schema of a display value', () => {
    const schema = checked(z.string(), displayText());
    expect(schema.safeParse('a\u202eb').error?.issues[0]?.message).toBe('GW0422');
    const rlo = 'Ann\u202eA';
    expect(updateUserInfoRequest.safeParse({ realName: rlo }).error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['realName', 'GW0422']);
    expect(passkeyNameSchema.safeParse('Key\u200b').error?.issues[0]?.message).toBe('GW0422');
    const join = companyJoinRequest.safeParse({ companyId: 'c', nickName: 'Bo\u200bb', personalEmail: 'a@b.co', contactTel: '13800138000', phoneCode: '+86' });
    expect(join.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['nickName', 'GW0422']);
    const company = companyFormFields.safeParse({ companyNameEn: 'Acme\u202e', contactName: 'Li\u200bLei' });
    const issues = company.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toContainEqual(['companyNameEn', 'CO0018']);
    expect(issues).toContainEqual(['contactName', 'GW0422']);
  });
});
