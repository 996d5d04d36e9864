import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en';
import { zh } from '../../src/i18n/zh';
import { pageShells, notFoundShell } from '../../src/lib/routes';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('dictionaries', () => {
  it('zh and en have exactly the same keys', () => {
    expect(keyPaths(zh).sort()).toEqual(keyPaths(en).sort());
  });

  it('have no empty message', () => {
    for (const [name, dict] of Object.entries({ zh, en })) {
      for (const path of keyPaths(dict)) {
        const text = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], dict);
        expect(text, `${name}.${path}`).toMatch(/\S/);
      }
    }
  });

  it('name every page, in both languages', () => {
    for (const shell of [...pageShells, notFoundShell]) {
      expect(en.pages[shell].title).toBeTruthy();
      expect(zh.pages[shell].title).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('name the language switch with the language it switches to, in that language', () => {
    expect(zh.header.langToggle).toBe('English');
    expect(en.header.langToggle).toBe('中文');
    expect(zh.legal.langSwitch).toBe('English');
    expect(en.legal.langSwitch).toBe('中文');
  });
});
