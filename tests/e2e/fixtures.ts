import { test as base, expect, type BrowserContextOptions, type Page } from '@playwright/test';
import { seedUser, signInByRequest, uniqueEmail } from './helpers';
import { PORTAL_ORIGIN, startWorldServer } from './world';

/**
 * The suite's `test`: every spec imports it from here, not from @playwright/test.
 * - `server` (worker): this worker's own portal, D1, R2 and Durable Objects (world.ts); `baseURL` points at it.
 * - each test is its own client network (the dev-only x-test-client-ip header, DEV_TRUST_CLIENT_IP_HEADER), so the
 *   per-network caps (codes, guesses, links, tracking) are the deployed ones and no test spends another's.
 * - `person`: an e-mail account seeded by the dev route, terms agreed, with its password.
 * - `signedIn`: the page, signed in as `person` through the gateway (the cookie in the page's context): for tests
 *   about something else than signing in.
 * - `operatorPage(role, fields?)`: the page (or `fields.page`, another browser of the test) with a console session
 *   of a fresh operator in `role`, named `fields.name` (the dev route mints the real HttpOnly cookie), for tests
 *   about something else than the operator sign-in.
 * - `network`: this test's client network (the x-test-client-ip every browser and request of the test sends).
 * - `newPage(options?)`: another browser (context) of the same test, on the test's client network, closed after
 *   it: a second person, or an operator beside the person (`browser.newContext()` would send no network header).
 */
export type Person = { email: string; password: string; userId: string };
type OperatorRole = 'admin' | 'reviewer' | 'support';

let networks = 0;
/** A client network no other test of this worker has used: 10.(100 + worker).x.y. */
function freshNetwork(): string {
  const n = ++networks;
  return `10.${100 + Number(process.env.TEST_PARALLEL_INDEX ?? 0)}.${(n >> 8) & 255}.${n & 255}`;
}

export const PASSWORD = 'harbour2024';

export type OperatorFields = { name?: string; login?: string; page?: Page };

export const test = base.extend<
  {
    person: Person;
    signedIn: Page;
    operatorPage: (role: OperatorRole, fields?: OperatorFields) => Promise<Page>;
    network: string;
    newPage: (options?: BrowserContextOptions) => Promise<Page>;
  },
  { server: Awaited<ReturnType<typeof startWorldServer>> }
>({
  server: [
    async ({}, use) => {
      const server = await startWorldServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ server }, use) => use(server.origin),
  network: async ({}, use) => use(freshNetwork()),
  extraHTTPHeaders: async ({ extraHTTPHeaders, network }, use) => use({ 'x-test-client-ip': network, ...extraHTTPHeaders }),
  newPage: async ({ browser, baseURL, extraHTTPHeaders }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({ baseURL, ...options, extraHTTPHeaders: { ...extraHTTPHeaders, ...options.extraHTTPHeaders } });
      contexts.push(context);
      return context.newPage();
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  person: async ({ request }, use) => {
    const email = uniqueEmail('person');
    const userId = await seedUser(request, { email, password: PASSWORD, agreed: true });
    await use({ email, password: PASSWORD, userId });
  },
  signedIn: async ({ page, person }, use) => {
    await signInByRequest(page.request, person.email, person.password);
    await use(page);
  },
  operatorPage: async ({ page }, use) => {
    await use(async (role, { page: target = page, ...fields } = {}) => {
      const minted = await target.request.post('/api/dev/operator-session', { data: { role, ...fields } });
      expect(((await minted.json()) as { code: string }).code).toBe('0');
      return target;
    });
  },
});

export { expect, PORTAL_ORIGIN };

