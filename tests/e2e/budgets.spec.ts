import { gzipSync } from 'node:zlib';
import { type BrowserContext, type Page, type Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { langs, type Lang } from '../../src/lib/lang';
import { legalDocs, legalPaths } from '../../src/lib/legal';
import { pageShells, sessionShells } from '../../src/lib/routes';
import { openInLanguage, seedUser, signInByRequest, uniqueEmail } from './helpers';

/**
 * Byte budgets (issue 9): what Chromium loads for every route in both languages, as gzip -9 of each script
 * and stylesheet body (transfer sizes depend on the server's compression, these do not). Bytes are
 * deterministic for a build, so a change that breaks a budget fails here, naming the page and the count.
 */
const KB = 1024;
const BUDGET = {
  // Issue 31's target (issue 9 had 85 KB). React and react-dom alone are 66.6 KB; /login loads about 78 KB: the form
  // and the fields in two chunks, the layout's script with tracking and a small preload helper in one, and the
  // gateway calls, zod, passkeys, WeChat, the dialogs and error reporting only once used (astro.config.mjs).
  loginJs: 78 * KB,
  // Every other page, signed out and, for the pages behind sign-in, signed in as the person the page is for
  // (issue 31; it was 92 KB, measured signed out only). Signed in, the gateway client and zod (12.5 KB) load at
  // once; what a page needs only after a click or far down (the user center's lower sections) loads then.
  pageJs: 90 * KB,
  /** Legal texts and the 404 page carry no framework: at most the layout's small header script. */
  staticJs: 3 * KB,
  css: 15 * KB,
} as const;

/**
 * The pages that paint the person's data at first paint (issue 46's decision: at most 95 KB; every other page 90 KB,
 * /login 78 KB). React is 66.6 KB and the gateway chunk (zod/mini, the client, the account's calls) 12.5 KB of each;
 * these pages read and check data at first paint (the architecture parses every answer with its schema), so zod
 * cannot wait for a click. Three pages are held at their bytes of 2026-11-29, a little over, so that none grows
 * until issue 46 brings them back (README "Page bytes"): the user center and the fill page 0.5 and 0.3 KB over 95 KB
 * with this stop's acting, zones on pages and registry reasons; /account 0.2 KB over 90 KB with its acting section's
 * call (the section itself loads only when there is something to act under).
 */
const NOT_YET_WITHIN: Partial<Record<string, number>> = {
  // Measured 94.8 KB (pages7 and lh7 merged; the lower sections load through LaterParts.tsx): the profile, the
  // companies and each administered company's invitation code paint at once, with the user-center store, the
  // person's and the members' calls and contracts (api/me.ts, api/company-members.ts).
  '/user_center': 95.6 * KB,
  // 93.08 KB: the company form itself (4.7 KB), its pickers, the identity read (me-contact); its checks and submit
  // load on first use, a picked file's check and the upload calls with the first file (pages8).
  '/create_account': 95 * KB,
  '/account': 90.2 * KB,
  // 94.70 KB: the same, with the company's read (company-fill, the detail's contract); a review's reason comes as
  // words in the page's language with the detail (pages8; the reasons' texts were 1.4 KB). 95.4: the route list in the
  // gateway chunk names /company_sso_callback (issue 43), 18 bytes more.
  '/fill_account': 95.4 * KB,
};

/** Any path that is not a route gets the localised 404 page. */
const NOT_FOUND_PATH = '/budget-check-no-such-page';
const legalRoutes = legalDocs.map((doc) => legalPaths[doc]);
const routes = ['/', ...pageShells.map((shell) => `/${shell}`), ...legalRoutes, NOT_FOUND_PATH];

function jsBudget(path: string): number {
  if (path === '/' || path === '/login') return BUDGET.loginJs;
  if (path === NOT_FOUND_PATH || legalRoutes.includes(path)) return BUDGET.staticJs;
  return BUDGET.pageJs;
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
    const signedInBudget = NOT_YET_WITHIN[path] ?? BUDGET.pageJs;
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
