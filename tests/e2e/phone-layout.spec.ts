import { type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { openInLanguage, uniqueEmail } from './helpers';

/** What a phone shows: whole tab labels, a site name that fits, and the agreement frame at 360 px. */

/** Elements whose text wraps onto a second line or is cut off. */
function brokenLabels(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((nodes) =>
    nodes
      .filter((node) => {
        const style = getComputedStyle(node);
        const oneLine = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
        const text = node.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
        return text > oneLine * 1.5 || node.scrollWidth > node.clientWidth + 1;
      })
      .map((node) => node.textContent),
  );
}

for (const lang of langs) {
  const m = messages[lang].signIn;
  for (const width of [360, 390]) {
    test(`at ${width} px (${lang}) the tabs and the site name stay whole`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await openInLanguage(page, lang, '/login');
      await expect(page.getByRole('tab', { name: m.tabs.password })).toBeVisible();
      expect(await brokenLabels(page, '.tab, .subtab, .brand-name:visible, .field > label')).toEqual([]);
    });
  }

  test(`the agreement frame is 360 px wide on a 390 px phone (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await openInLanguage(page, lang, '/login');
    await page.getByRole('tab', { name: m.tabs.email }).click();
    await page.getByLabel(m.email).fill(uniqueEmail(`frame-${lang}`));
    await page.getByRole('button', { name: m.getCode }).click();
    const frame = page.locator('.agreement-frame');
    await expect(frame).toBeVisible();
    expect((await frame.boundingBox())!.width).toBe(360);
    await page.getByRole('button', { name: m.agreement.cancel }).click();
  });
}
