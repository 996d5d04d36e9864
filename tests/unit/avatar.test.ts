import { describe, expect, it } from 'vitest';
import { AVATAR_COLOURS, avatarColour, avatarInitials } from '../../src/lib/avatar';

describe('avatar initials', () => {
  it('takes the first character of a Chinese name', () => {
    expect(avatarInitials('王小明')).toBe('王');
    expect(avatarInitials('  欧阳娜娜 ')).toBe('欧');
  });

  it('takes the initials of a name of several words: its first and last words (issue 47)', () => {
    expect(avatarInitials('Chen Jing')).toBe('CJ');
    expect(avatarInitials('li wei')).toBe('LW');
    expect(avatarInitials('Mary Ann  Lee')).toBe('ML');
    expect(avatarInitials('Zoë - Ångström')).toBe('ZÅ');
  });

  it('takes the first two letters of a one-word name, upper-cased', () => {
    expect(avatarInitials('Anna')).toBe('AN');
    expect(avatarInitials('O\'Brien')).toBe('OB');
    expect(avatarInitials('x')).toBe('X');
  });

  it('has a placeholder for an empty name', () => {
    expect(avatarInitials('')).toBe('?');
    expect(avatarInitials(null)).toBe('?');
  });
});

describe('avatar colour', () => {
  it('is one of seven, chosen by the last character of the id', () => {
    expect(AVATAR_COLOURS).toHaveLength(7);
    expect(avatarColour('abc-1')).toBe(avatarColour('zzz-1'));
    expect(avatarColour('abc-1')).toBe(AVATAR_COLOURS['1'.codePointAt(0)! % 7]);
    expect(AVATAR_COLOURS).toContain(avatarColour('0c6f2b7e-9d7e-4a57-bf45-3f1e8d8a9c2f'));
  });

  it('spreads ids over all seven colours', () => {
    const colours = new Set('0123456789abcdef'.split('').map((c) => avatarColour(`id-${c}`)));
    expect(colours.size).toBe(7);
  });

  it('falls back to the first colour without an id', () => {
    expect(avatarColour('')).toBe(AVATAR_COLOURS[0]);
  });
});
