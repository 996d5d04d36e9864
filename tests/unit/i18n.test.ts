import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en';
import { zh } from '../../src/i18n/zh';
import { opsMessages } from '../../src/i18n/ops';
import { workerMessages } from '../../src/i18n/worker';
import { pageShells, notFoundShell } from '../../src/lib/routes';
import { problemText } from '../../src/i18n/problem';
import { NETWORK_ERROR, SERVER_ERROR } from '../../src/api/result';
import { AUDITED_ACTIONS } from '../../src/schemas/ops-people';
import { actionLabel } from '../../src/islands/ops/audit/action-label';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

/** Every dictionary by locale: the people's, the operator console's and the Worker's. */
const dictionaries = { people: { zh, en }, ops: opsMessages, worker: workerMessages };

describe('dictionaries', () => {
  // The shared types (Messages, OpsMessages, WorkerMessages) already refuse a missing or extra key at compile
  // time; this says which one, for a dictionary built some other way.
  it('zh and en have exactly the same keys', () => {
    for (const { zh, en } of Object.values(dictionaries)) expect(keyPaths(zh).sort()).toEqual(keyPaths(en).sort());
  });

  it('name every action the audit trail records, in both languages (the trail never shows a raw key)', () => {
    for (const dict of [zh, en]) {
      for (const action of AUDITED_ACTIONS) expect(actionLabel(dict, action), action).not.toBe(action);
    }
    const named = Object.entries(en.actionNames).flatMap(([area, names]) => Object.keys(names).map((name) => `${area}.${name}`));
    expect(named.sort()).toEqual([...AUDITED_ACTIONS].sort());
  });

  it('have no empty message', () => {
    // The gap between words and a link: a space in English, nothing in Chinese, which sets no space there.
    const separators = new Set(['signIn.linkGap']);
    for (const [area, byLang] of Object.entries(dictionaries)) {
      for (const [name, dict] of Object.entries(byLang)) {
        for (const path of keyPaths(dict)) {
          const text = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], dict);
          expect(text, `${area} ${name}.${path}`).toMatch(separators.has(path) ? /^ ?$/ : /\S/);
        }
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

describe('what a failed call says', () => {
  it('offline: check the connection; our side: try again with the trace id; never "refresh"', () => {
    expect(problemText(en, { code: NETWORK_ERROR })).toBe(en.errors.network);
    expect(problemText(zh, { code: SERVER_ERROR, traceId: 't-1' })).toBe(`${zh.errors.server} ${zh.errors.reference.replace('{id}', 't-1')}`);
    // A gateway 5xx keeps its own words and adds the reference.
    expect(problemText(en, { code: 'GW0502', message: 'The gateway is not reachable.', traceId: 't-2' })).toBe('The gateway is not reachable. (Reference: t-2)');
    // A refusal (4xx) has no trace id and says only what the gateway said.
    expect(problemText(en, { code: 'US0010', message: 'Wrong password.' })).toBe('Wrong password.');
    for (const messages of [en, zh]) for (const text of Object.values(messages.errors)) expect(text).not.toMatch(/refresh|刷新/i);
  });
});
