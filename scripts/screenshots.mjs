// Screenshots of pages in both languages at phone and desktop width, for a person to look at.
// Usage: node scripts/screenshots.mjs [baseURL] [path ...]   (output: test-results/screenshots/)
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [base = 'http://127.0.0.1:8787', ...paths] = process.argv.slice(2);
const out = 'test-results/screenshots';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
});
for (const path of paths.length ? paths : ['/login']) {
  for (const lang of ['zh', 'en']) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
      await context.addCookies([{ name: 'LANG', value: lang, url: base }]);
      const page = await context.newPage();
      await page.goto(base + path, { waitUntil: 'networkidle' });
      const file = `${out}/${path.replace(/\W+/g, '_') || 'root'}-${lang}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await context.close();
    }
  }
}
await browser.close();
