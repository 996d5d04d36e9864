import { gzipSync } from 'node:zlib';
import { type BrowserContext, type Page, type Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { langs, type Lang } from '../../src/lib/lang';
import { legalDocs, legalPaths } from '../../src/lib/legal';
import { pageShells, sessionShells } from '../../src/lib/routes';
import { openInLanguage, seedUser, signInByRequest, uniqueEmail } from './helpers';
import { BUDGET, jsBudgetOf } from '../../scripts/page-budgets.mjs';

/**
 * Byte budgets (issue 9): what Chromium loads for every route in both languages, as gzip -9 of each script
 * and stylesheet body (transfer sizes depend on the server's compression, these do not). Bytes are
 * deterministic for a build, so a change that breaks a budget fails here, naming the page and the count.
 */
const KB = 1024;

/**
 * Pages held at their bytes of a given day, a little over their budget, so that none grows until it is brought
 * back (README "Page bytes"). Empty when every page is within scripts/page-budgets.mjs.
 */
const NOT_YET_WITHIN: Partial<Record<string, number>> = {};

/** Any path that is not a route gets the localised 404 page. */
const NOT_FOUND_PATH = '/budget-check-no-such-page';
const legalRoutes = legalDocs.map((doc) => legalPaths[doc]);
const routes = ['/', ...pageShells.map((shell) => `/${shell}`), ...legalRoutes, NOT_FOUND_PATH];

function jsBudget(path: string): number {
  return NOT_YET_WITHIN[path] ?? jsBudgetOf(path, { plain: path === NOT_FOUND_PATH || legalRoutes.includes(path) });
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const PASSWORD = 'harbour2024';

/** Gzipped bytes of every script and stylesheet `path` loads in `page` once it is idle and its islands hydrated. */
async function measure(page: Page, lang: Lang, path: string) {
  // A page may send the visitor on (to /login without a session); only this page's own loads count.
  let navigations = 0;
  await page.route('**/*', (route) =>
    route.request().isNavigationRequest() && route.request().frame() === page.mainFrame() && navigations++ > 0
      ? route.abort()
      : route.continue(),
  );
  const loads = new Map<string, { type: 'script' | 'stylesheet'; body: Promise<Buffer | undefined> }>();
  page.on('response', (response: Response) => {
    const type = response.request().resourceType();
    if ((type !== 'script' && type !== 'stylesheet') || loads.has(response.url())) return;
    // Read the body at once: it may be gone after a later navigation.
    loads.set(response.url(), { type, body: response.body().catch(() => undefined) });
  });

  await openInLanguage(page, lang, path);
  await page.waitForLoadState('networkidle');
  // client:only islands drop `ssr` once hydrated: by then every static import of the island has loaded.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);

  const sizes = { script: 0, stylesheet: 0 };
  const files: string[] = [];
  for (const [url, { type, body }] of loads) {
    const bytes = await body;
    expect(bytes, `${lang} ${path}: no body for ${url}`).toBeDefined();
    const gzipped = gzipSync(bytes!, { level: 9 }).length;
    sizes[type] += gzipped;
    files.push(`${new URL(url).pathname} ${kb(gzipped)}`);
  }
  return { ...sizes, detail: files.sort().join(', ') || 'nothing' };
}

/** A person for whom every page behind sign-in is meant, signed in in `context`: an administrator of a verified main
 * company, with a second company still to complete (/fill_account); returns the path that page is opened with. */
async function signInAsTheirPerson(context: BrowserContext, shell: string): Promise<string> {
  const email = uniqueEmail(`budget-${shell}`);
  const tag = `${shell} ${Date.now()}`;
  await seedUser(context.request, {
    email,
    password: PASSWORD,
    userType: 2,
    realName: 'Li Lei',
    agreed: true,
    companies: [{ nameEn: `Budget Shipping ${tag}`, isMain: true }, { nameEn: `Budget Forwarding ${tag}`, status: 'additional_info' }],
  });
  await signInByRequest(context.request, email, PASSWORD);
  if (shell !== 'fill_account') return `/${shell}`;
  const companies = (await (await context.request.post('/api/c/user/v2/getCompanyListByToken', { data: {} })).json()) as { data: { companyId: string; companyNameEn: string }[] };
  return `/fill_account?companyId=${companies.data.find((company) => company.companyNameEn.startsWith('Budget Forwarding'))!.companyId}`;
}

/**
 * One test per route, both languages in it (the bytes of a page differ by language only in its words), and for a
 * page behind sign-in also signed in (issue 31), where the islands do their real work, as the person it is for.
 * Every budget is a soft assertion, so one run names every page and language over budget.
 */
for (const path of routes) {
  const shell = path.slice(1);
  const behindSignIn = (sessionShells as readonly string[]).includes(shell);
  test(`${path} stays within its byte budgets in both languages${behindSignIn ? ', signed out and signed in' : ''}`, async ({ context }) => {
    const budget = jsBudget(path);
    for (const lang of langs) {
      const page = await context.newPage();
      const { script, stylesheet, detail } = await measure(page, lang, path);
      test.info().annotations.push({ type: 'bytes', description: `${lang} ${path}: JS ${kb(script)} (${script} B), CSS ${kb(stylesheet)}: ${detail}` });
      expect.soft(script, `${lang} ${path} loads ${script} B (${kb(script)}) of gzipped JavaScript, budget ${kb(budget)}: ${detail}`).toBeLessThanOrEqual(budget);
      expect.soft(stylesheet, `${lang} ${path} loads ${stylesheet} B (${kb(stylesheet)}) of gzipped CSS, budget ${kb(BUDGET.css)}: ${detail}`).toBeLessThanOrEqual(BUDGET.css);
      if (budget === BUDGET.staticJs) {
        // No framework at all: no island, hence no React runtime.
        await expect.soft(page.locator('astro-island'), `${lang} ${path} has no island`).toHaveCount(0);
      }
      await page.close();
    }
    if (!behindSignIn) return;

    const signedInPath = await signInAsTheirPerson(context, shell);
    const signedInBudget = jsBudget(path);
    for (const lang of langs) {
      const page = await context.newPage();
      const { script, stylesheet, detail } = await measure(page, lang, signedInPath);
      test.info().annotations.push({ type: 'bytes', description: `${lang} ${signedInPath} signed in: JS ${kb(script)} (${script} B), CSS ${kb(stylesheet)}: ${detail}` });
      // Still on the page (not sent to sign-in or elsewhere), so its own island was measured.
      expect.soft(new URL(page.url()).pathname, `${lang} ${path} signed in stays on its page`).toBe(path);
      expect.soft(script, `${lang} ${signedInPath} signed in loads ${script} B (${kb(script)}) of gzipped JavaScript, budget ${kb(signedInBudget)}: ${detail}`).toBeLessThanOrEqual(signedInBudget);
      expect.soft(stylesheet, `${lang} ${signedInPath} signed in loads ${kb(stylesheet)} of gzipped CSS, budget ${kb(BUDGET.css)}`).toBeLessThanOrEqual(BUDGET.css);
      await page.close();
    }
  });
}
