import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { langs } from '../../src/lib/lang';
import { DIST } from './built-site';

/**
 * The script policy each sign-in page carries in its own HTML (the built shells in dist/, which the Worker serves as
 * they are): scripts from this site, Cloudflare's Turnstile and the hashed inline loaders only; workers from this
 * site only; never `blob:`. Moved from tests/e2e/handoff-choice.spec.ts, which keeps what only a browser can tell:
 * that the islands hydrate under this policy without a violation. The `object-src 'none'` header of every page is
 * page-shells.test.ts, "security headers are on every page…".
 */

/** The content of the page's `<meta http-equiv="content-security-policy">`. */
function metaPolicy(html: string): string | undefined {
  return /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(html)?.[1];
}

describe('the script policy of the sign-in pages', () => {
  for (const lang of langs) {
    for (const shell of ['login', 'register', 'forget']) {
      it(`${lang} /${shell}: scripts from this site, Turnstile and hashed inline loaders; workers from this site; no blob:`, () => {
        const policy = metaPolicy(readFileSync(join(DIST, lang, `${shell}.html`), 'utf8'));
        expect(policy, `${lang} /${shell}`).toMatch(/script-src 'self' https:\/\/challenges\.cloudflare\.com 'sha256-/);
        expect(policy).toContain("worker-src 'self'");
        expect(policy).not.toContain('blob:');
      });
    }
  }
});
