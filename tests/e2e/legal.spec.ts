import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { readLegalContent } from '../../scripts/legal-source';

/**
 * The legal pages as a person meets them: the language link and framing by this site only, enforced by the
 * browser. Each page's language, title, headers and script-free HTML, the 404 of near-miss paths and
 * queryUserProtocol's URLs are tests/functions/page-shells.test.ts ("legal pages").
 */
const { entries } = readLegalContent();
const titleOf = (lang: string, doc: string) => entries.find((e) => e.lang === lang && e.doc === doc)!.data.title;

test('?lang= shows the given language whatever the cookie, and links to the other one', async ({ page, context }) => {
  await context.addCookies([{ name: 'LANG', value: 'en', url: 'http://127.0.0.1' }]);
  await page.goto('/privacy?lang=zh');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.locator('h1')).toHaveText(titleOf('zh', 'privacy'));
  await page.getByRole('link', { name: messages.zh.legal.langSwitch }).click();
  await expect(page).toHaveURL(/\/privacy\?lang=en$/);
  await expect(page.locator('h1')).toHaveText(titleOf('en', 'privacy'));
  // The query does not change the visitor's language.
  expect((await context.cookies()).find((c) => c.name === 'LANG')?.value).toBe('en');
});

test('a page of this site can frame the terms; another origin cannot', async ({ page, baseURL }) => {
  const otherOrigin = baseURL!.replace('127.0.0.1', 'localhost');
  await page.goto('/login');
  const framed = async (src: string) =>
    page.evaluate(
      (url) =>
        new Promise<boolean>((resolve) => {
          const frame = document.createElement('iframe');
          frame.src = url;
          frame.onload = () => {
            // A blocked frame loads an error page of another origin: its document cannot be read.
            try {
              resolve(Boolean(frame.contentDocument?.querySelector('h1')));
            } catch {
              resolve(false);
            }
          };
          document.body.append(frame);
        }),
      src,
    );
  expect(await framed('/terms?lang=en')).toBe(true);
  // The same page served to another origin's frame: the browser refuses to render it.
  await page.goto(`${otherOrigin}/login`);
  const blocked = page.waitForEvent('console', { predicate: (msg) => /frame-ancestors|Refused to display/i.test(msg.text()) });
  await page.evaluate((url) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    document.body.append(frame);
  }, `${baseURL}/terms`);
  expect((await blocked).text()).toMatch(/frame-ancestors/);
});
