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

  it('label the language switch with the language it switches to', () => {
    expect(zh.header.langToggle).toBe('EN');
    expect(en.header.langToggle).toBe('CN');
  });
});
