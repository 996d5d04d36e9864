import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { legalDocs, legalPaths } from '../../src/lib/legal';
import { readLegalContent } from '../../scripts/legal-source';

const { entries } = readLegalContent();
const titleOf = (lang: string, doc: string) => entries.find((e) => e.lang === lang && e.doc === doc)!.data.title;
const htmlLang = { zh: 'zh-CN', en: 'en' } as const;

for (const lang of langs) {
  test(`every legal page answers in ${lang}, frameable by this site only, with no script`, async ({ page, context }) => {
    await context.addCookies([{ name: 'LANG', value: lang, url: 'http://127.0.0.1' }]);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    for (const doc of legalDocs) {
      const path = legalPaths[doc];
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      await expect(page.locator('html'), path).toHaveAttribute('lang', htmlLang[lang]);
      await expect(page, path).toHaveTitle(`${titleOf(lang, doc)} · ${messages[lang].meta.siteName}`);
      await expect(page.locator('h1'), path).toHaveText(titleOf(lang, doc));
      await expect(page.locator('script'), path).toHaveCount(0);
      const headers = res!.headers();
      expect(headers['content-security-policy'], path).toContain("frame-ancestors 'self'");
      expect(headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(headers['vary'], path).toContain('Cookie');
    }
    expect(scripts).toEqual([]);
  });
}

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

test('other pages stay unframeable, and near-miss paths are 404', async ({ request }) => {
  expect((await request.get('/login')).headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  for (const path of ['/terms/', '/registration', '/en/legal/terms', '/legal/terms']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(res.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
  }
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
  const blocked = page.waitForEvent('console', { predicate: (msg) => /frame-ancestors|Refused to display/i.test(msg.text()), timeout: 10_000 });
  await page.evaluate((url) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    document.body.append(frame);
  }, `${baseURL}/terms`);
  expect((await blocked).text()).toMatch(/frame-ancestors/);
});

test('queryUserProtocol points at the pages, through the Worker', async ({ request }) => {
  const res = await request.get('/api/agg-web/protocol/queryUserProtocol?platformCode=1&type=1');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { code: string; data: { urlCn: string; urlEn: string } };
  expect(body.code).toBe('0');
  expect((await request.get(body.data.urlCn)).status()).toBe(200);
  expect(await (await request.get(body.data.urlEn)).text()).toContain(`<h1 id="legal-title">${titleOf('en', 'terms')}</h1>`);
  const bad = await request.get('/api/agg-web/protocol/queryUserProtocol?platformCode=1&type=7');
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ code: 'LG0001' });
});
