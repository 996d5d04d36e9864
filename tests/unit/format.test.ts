import { describe, expect, it } from 'vitest';
import { format } from '../../src/i18n/format';

describe('format', () => {
  it('fills each placeholder by name, numbers as digits', () => {
    expect(format('{n} of {max} files', { n: 2, max: 5 })).toBe('2 of 5 files');
    expect(format('{browser} on {os}', { os: 'macOS', browser: 'Firefox' })).toBe('Firefox on macOS');
  });

  it('leaves a placeholder without a value as written (a caller may split on it)', () => {
    expect(format('Welcome, {name}. Your login is {login}.', { name: 'Ada' })).toBe('Welcome, Ada. Your login is {login}.');
    expect(format('{constructor} {toString}', {})).toBe('{constructor} {toString}');
  });

  it('fills a placeholder named twice both times', () => {
    expect(format('{name} and {name} again', { name: 'Li' })).toBe('Li and Li again');
  });

  it('takes values as they are: no replacement patterns, no placeholders inside values', () => {
    expect(format('Remove {name}?', { name: 'a $& b $1 $$' })).toBe('Remove a $& b $1 $$?');
    expect(format('{a} {b}', { a: '{b}', b: 'x' })).toBe('{b} x');
    expect(format('Hello {name}', { name: '{' })).toBe('Hello {');
    expect(format('{} {not-a-name} { name }', { name: 'x' })).toBe('{} {not-a-name} { name }');
  });

  it('keeps empty values empty and words without placeholders as they are', () => {
    expect(format('[{x}]', { x: '' })).toBe('[]');
    expect(format('No placeholders.', { x: 'y' })).toBe('No placeholders.');
  });
});
