import { test, type Page } from '@playwright/test';

/** Whether this run keeps screenshots (SCREENSHOTS=1, as the @screenshots tour in playwright.config.ts). */
export const SCREENSHOTS = Boolean(process.env.SCREENSHOTS);

/**
 * A full-page screenshot for a person to look at, only when the run asks for screenshots (SCREENSHOTS=1): written
 * to the test's own output folder (test-results/…), never outside the repository. Otherwise it does nothing, so a
 * journey does not pay for pictures no one looks at.
 */
export async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** `shoot` at each width in turn (the page keeps the last width). */
export async function shootAtWidths(page: Page, name: string, widths: readonly number[], height = 900) {
  if (!SCREENSHOTS) return;
  for (const width of widths) {
    await page.setViewportSize({ width, height });
    await shoot(page, `${name}-${width}`);
  }
}
