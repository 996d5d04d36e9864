import { describe, expect, it } from 'vitest';
import { chooseLang, joinList, joinSentences } from '../../src/lib/lang';
import { parseConfig } from '../../functions/config';

const langDefaultsFrom = (vars: Record<string, string>) => parseConfig(vars).lang;
const defaults = langDefaultsFrom({ DEFAULT_LANG: 'en', ZH_HOST_SUFFIXES: '.cn' });

describe('chooseLang', () => {
  it('takes the LANG cookie when it names a known language', () => {
    expect(chooseLang('zh', 'portal.example.com', defaults)).toBe('zh');
    expect(chooseLang('en', 'portal.example.cn', defaults)).toBe('en');
  });

  it('ignores any other cookie value and lets the host decide', () => {
    for (const value of ['ZH', 'fr', '', 'zh; en', 'en-US', undefined]) {
      expect(chooseLang(value, 'portal.example.cn', defaults)).toBe('zh');
      expect(chooseLang(value, 'portal.example.com', defaults)).toBe('en');
    }
  });

  it('treats hosts ending in .cn as Chinese, case and trailing dot aside, but not hosts that merely contain it', () => {
    expect(chooseLang(undefined, 'WWW.EXAMPLE.CN.', defaults)).toBe('zh');
    expect(chooseLang(undefined, 'example.cn.evil.com', defaults)).toBe('en');
  });

  it('uses the configured default and suffixes', () => {
    const zhFirst = langDefaultsFrom({ DEFAULT_LANG: 'zh', ZH_HOST_SUFFIXES: '.cn, .com.cn' });
    expect(chooseLang(undefined, 'localhost', zhFirst)).toBe('zh');
    // Unset means English and `.cn`; an unknown language is a configuration error, not a silent English.
    expect(langDefaultsFrom({})).toEqual({ defaultLang: 'en', zhHostSuffixes: ['.cn'] });
    expect(() => langDefaultsFrom({ DEFAULT_LANG: 'de' })).toThrow(/DEFAULT_LANG/);
  });
});

describe('running text in each language', () => {
  it('lists with 、 in Chinese and a comma in English', () => {
    expect(joinList('zh', ['港口挂靠', '燃油加注'])).toBe('港口挂靠、燃油加注');
    expect(joinList('en', ['Port calls', 'Bunkering'])).toBe('Port calls, Bunkering');
  });

  it('sets sentences side by side in Chinese and a space apart in English, skipping empty ones', () => {
    expect(joinSentences('zh', ['企业管理员已批准您加入。', '', '您现在可以进入该企业。'])).toBe('企业管理员已批准您加入。您现在可以进入该企业。');
    expect(joinSentences('en', ['Approved.', '', 'You can enter now.'])).toBe('Approved. You can enter now.');
  });
});
