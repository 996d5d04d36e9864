import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { consoleMessages } from '../../src/i18n/ops';
import { langs } from '../../src/lib/lang';
import { legalPaths } from '../../src/lib/legal';
import { opsShells, pageShells, sessionShells, signInShells } from '../../src/lib/routes';
import { AXE_TAGS, createCompany, failDelivery, openInLanguage, passSlider, seedUser, sendSmsCode, settle, shoot, shutDeliveryBreakers, signInByEmail, signInByRequest, sliderChallenge, uniqueEmail, uniqueMobile } from './helpers';

// Issue 9, accessibility: axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on every route in both languages,
// signed out and (for pages behind sign-in) signed in, and on each modal as it opens; plus keyboard paths.
// Axe runs here (and in page-tour.spec.ts) once per page and state, not in the journeys: the operator console,
// the SMS-down offer, two-step verification and the company cards of /account each have their test below.

/** Pages that need a session; the sign-in-by-link pages sign a person in themselves. */
const signedInShells = pageShells.filter((shell) => !signInShells.includes(shell) && shell !== 'pass_email_login' && shell !== 'share_login');
// Pages that need a session send a signed-out visitor to sign-in, so they are checked signed in only.
const signedOutPaths = ['/', ...pageShells.filter((shell) => !sessionShells.includes(shell)).map((shell) => `/${shell}`), ...Object.values(legalPaths), '/no-such-page-a11y'];

/** Axe violations on the page as readable lines: rule, impact and the first few offending nodes. */
async function violations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} → ${v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
        .join(' | ')}`,
  );
}

/**
 * WCAG 2.5.8 (target size, minimum) in the page: every visible interactive element is at least 24 × 24 px, or
 * a 24 px circle centred on it meets no other target and no other undersized target's circle. Links inside a
 * sentence are exempt. A visually hidden input is measured by the label that stands in for it.
 */
function undersizedTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, [role="tab"], [tabindex="0"]';
    const inSentence = (el: Element) =>
      el.tagName === 'A' && getComputedStyle(el).display === 'inline' && Array.from(el.parentElement?.childNodes ?? []).some((node) => node !== el && node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '');
    const targets = Array.from(document.querySelectorAll<HTMLElement>(selector))
      .filter((el) => el.checkVisibility({ visibilityProperty: true }) && !inSentence(el))
      .map((el) => {
        let box = el.getBoundingClientRect();
        if ((box.width <= 1 || box.height <= 1) && el instanceof HTMLInputElement) {
          const label = Array.from(el.labels ?? []).find((l) => l.getBoundingClientRect().width > 1);
          if (label) box = label.getBoundingClientRect();
        }
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30);
        return { el, box, name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${name}"` };
      })
      // Off-screen until focused (the skip link) is not a target yet.
      .filter(({ box }) => box.width > 0 && box.height > 0 && box.right > 0 && box.left < innerWidth);
    const centre = (box: DOMRect) => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
    const distanceToBox = (p: { x: number; y: number }, box: DOMRect) => Math.hypot(Math.max(box.left - p.x, 0, p.x - box.right), Math.max(box.top - p.y, 0, p.y - box.bottom));
    const small = targets.filter(({ box }) => box.width < 24 || box.height < 24);
    return small
      .filter((target) => {
        const c = centre(target.box);
        return targets.some((other) => {
          if (other.el === target.el || other.el.contains(target.el) || target.el.contains(other.el)) return false;
          if (distanceToBox(c, other.box) < 12) return true;
          return small.includes(other) && Math.hypot(c.x - centre(other.box).x, c.y - centre(other.box).y) < 24;
        });
      })
      .map(({ box, name }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
  });
}

/** A list in consecutive parts of at most `size`, as even as can be. */
function inParts<T>(list: readonly T[], size = 8): T[][] {
  const parts = Math.ceil(list.length / size);
  const each = Math.ceil(list.length / parts);
  return Array.from({ length: parts }, (_, i) => list.slice(i * each, (i + 1) * each));
}

/** Collects each check's violations under its name, so one run names every failing page. */
function collector() {
  const found: Record<string, string[]> = {};
  return {
    async check(page: Page, name: string, include?: string) {
      const list = await violations(page, include);
      if (list.length) found[name] = list;
    },
    assertNone() {
      expect(found, 'axe violations (WCAG 2.2 AA) by page or modal').toEqual({});
    },
  };
}

for (const lang of langs) {
  const t = messages[lang];
  const m = t.signIn;

  test.describe(`accessibility (${lang})`, () => {
    // Each sweep in parts of at most 8 pages: a part stays well within the test time limit on a loaded machine.
    for (const [part, paths] of inParts(signedOutPaths).entries()) {
      test(`every route signed out has no axe violations, part ${part + 1}: ${paths[0]} to ${paths.at(-1)}`, async ({ page }) => {
        const axe = collector();
        for (const path of paths) {
          await openInLanguage(page, lang, path);
          await settle(page);
          await axe.check(page, `${path} (signed out)`);
        }
        axe.assertNone();
      });
    }

    for (const [part, shells] of inParts(signedInShells).entries()) {
      test(`every route behind sign-in, signed in, has no axe violations, part ${part + 1}: /${shells[0]} to /${shells.at(-1)}`, async ({ page }) => {
        const axe = collector();
        const email = uniqueEmail('axe');
        // Company names are unique per type: each run and language gets its own.
        await seedUser(page.request, { email, password: 'harbour2024', userType: 2, agreed: true, companies: [{ nameEn: `Axe Shipping ${lang} ${Date.now()} ${Math.random()}` }] });
        await signInByRequest(page.request, email, 'harbour2024');
        for (const shell of shells) {
          await openInLanguage(page, lang, `/${shell}`);
          await settle(page);
          await axe.check(page, `/${shell} (signed in, now ${new URL(page.url()).pathname})`);
        }
        axe.assertNone();
      });
    }

    test('each modal of the sign-in flow has no axe violations; the slider works by keyboard', async ({ page }) => {
      const axe = collector();
      // New user by phone: agreement → new-user → slider.
      await openInLanguage(page, lang, '/login');
      await settle(page);
      await page.getByLabel(m.phone, { exact: true }).fill(uniqueMobile());
      await page.getByRole('button', { name: m.getCode }).click();
      const agreement = page.getByRole('dialog', { name: m.agreement.title });
      await expect(agreement).toBeVisible();
      // The countdown is announced: a polite live region that counts down.
      const countdown = agreement.locator('[aria-live="polite"]');
      await expect(countdown).toHaveText(m.agreement.countdown.replace('{s}', '5'));
      await axe.check(page, 'agreement modal', 'dialog[open]');
      const confirm = agreement.getByRole('button', { name: m.agreement.confirm });
      await page
        .frameLocator('.agreement-frame')
        .locator('body')
        .evaluate((body) => body.ownerDocument.defaultView!.scrollTo(0, body.scrollHeight));
      await expect(confirm).toBeEnabled({ timeout: 8_000 });
      await confirm.click();

      const newUser = page.getByRole('dialog', { name: m.newUser.title });
      await expect(newUser).toBeVisible();
      await newUser.getByRole('button', { name: m.newUser.continue }).click();
      await expect(newUser.getByRole('alert')).toHaveText(t.validation.companyNameRequired);
      await axe.check(page, 'new-user modal (with an error)', 'dialog[open]');
      await newUser.getByLabel(m.newUser.companyName).fill('Axe Shipping');
      const challenge = sliderChallenge(page);
      await newUser.getByRole('button', { name: m.newUser.continue }).click();

      const slider = page.getByRole('dialog', { name: m.slider.title });
      await expect(slider.locator('.slider-piece')).toBeVisible();
      await axe.check(page, 'slider modal', 'dialog[open]');

      // Keyboard path: focus the handle, arrow keys move the piece, Enter confirms.
      const { sessionId } = await challenge;
      const reveal = (await (await page.request.get(`/api/dev/captcha/${sessionId}`)).json()) as { data: { x: number } };
      const handle = slider.getByRole('slider', { name: m.slider.handle });
      await handle.focus();
      await expect(handle).toBeFocused();
      await expect(handle).toHaveAttribute('aria-valuenow', '0');
      // A person's rhythm: big steps with Shift, then small ones, pauses that vary.
      let x = 0;
      let i = 0;
      while (reveal.data.x - x >= 20) {
        await page.keyboard.press('Shift+ArrowRight');
        x += 20;
        await page.waitForTimeout(40 + (i++ % 3) * 35);
      }
      while (reveal.data.x - x >= 2) {
        await page.keyboard.press('ArrowRight');
        x += 4;
        await page.waitForTimeout(90 + (i++ % 2) * 60);
      }
      await expect(handle).toHaveAttribute('aria-valuenow', String(x));
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(120);
      await page.keyboard.press('Enter');
      await expect(page.getByText(m.codeSent)).toBeVisible();
      // The change-password (insecure password) modal has its own test below.
      axe.assertNone();
    });

    test('the change-password modal (a password that breaks the rule) has no axe violations as it opens, shows and errs', async ({ page }) => {
      const axe = collector();
      const weak = uniqueEmail('axe-change');
      await seedUser(page.request, { email: weak, password: 'ab#1', insecurePassword: true, userType: 2, agreed: true });
      await openInLanguage(page, lang, '/login');
      await settle(page);
      await page.getByRole('tab', { name: m.tabs.password }).click();
      await page.getByRole('tab', { name: m.tabs.email }).click();
      await page.getByLabel(m.email).fill(weak);
      await page.getByLabel(m.password, { exact: true }).fill('ab#1');
      await page.getByRole('button', { name: m.submit }).click();
      const modal = page.getByRole('dialog', { name: m.insecure.title });
      await expect(modal).toBeVisible();
      await axe.check(page, 'change-password modal (as it opens)', 'dialog[open]');

      const newPassword = modal.getByLabel(m.insecure.newPassword, { exact: true });
      await newPassword.fill('Harbour77');
      await modal.getByRole('button', { name: m.showPassword }).first().click();
      await expect(newPassword).toHaveAttribute('type', 'text');
      await axe.check(page, 'change-password modal (password shown)', 'dialog[open]');

      await newPassword.fill('short');
      await modal.getByRole('button', { name: m.insecure.confirm }).click();
      await expect(modal.getByRole('alert')).toHaveText(t.validation.passwordRule);
      await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
      await axe.check(page, 'change-password modal (rule error)', 'dialog[open]');

      await newPassword.fill('Harbour77');
      await modal.getByLabel(m.insecure.confirmPassword, { exact: true }).fill('Harbour78');
      await modal.getByRole('button', { name: m.insecure.confirm }).click();
      await expect(modal.getByRole('alert')).toHaveText(t.validation.passwordMismatch);
      await axe.check(page, 'change-password modal (mismatch error)', 'dialog[open]');
      axe.assertNone();
    });

    test('touch targets are at least 24 × 24 px, or spaced (WCAG 2.5.8), at 390 px wide', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const found: Record<string, string[]> = {};
      await openInLanguage(page, lang, '/login');
      await settle(page);
      found['/login'] = await undersizedTargets(page);
      // The code tab's fields and the password tab's differ: both are measured.
      await page.getByRole('tab', { name: m.tabs.password }).click();
      found['/login (password)'] = await undersizedTargets(page);

      const email = uniqueEmail('axe-touch');
      await seedUser(page.request, { email, password: 'harbour2024', userType: 0, agreed: true });
      await signInByRequest(page.request, email, 'harbour2024');
      for (const path of ['/create_account', '/join']) {
        await openInLanguage(page, lang, path);
        await settle(page);
        await expect(page).toHaveURL(new RegExp(`${path}$`));
        found[path] = await undersizedTargets(page);
      }
      expect(Object.fromEntries(Object.entries(found).filter(([, list]) => list.length)), 'targets under 24 × 24 px without spacing').toEqual({});
    });

    test('password sign-in with the keyboard alone', async ({ page }) => {
      const email = uniqueEmail('axe-kb');
      await seedUser(page.request, { email, password: 'harbour2024', userType: 2, agreed: true });
      await openInLanguage(page, lang, '/login');
      await settle(page);
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el ? `${el.tagName.toLowerCase()}|${el.getAttribute('role') ?? ''}|${el.id}|${el.textContent?.trim() ?? ''}` : '';
        });
      /** Presses Tab until the focused element matches, and checks it is visibly focused and not under the header. */
      const tabTo = async (match: (desc: string) => boolean) => {
        for (let n = 0; n < 30; n++) {
          await page.keyboard.press('Tab');
          const desc = await focused();
          if (match(desc)) {
            const visible = await page.evaluate(() => {
              const el = document.activeElement as HTMLElement;
              const style = getComputedStyle(el);
              const box = el.getBoundingClientRect();
              const header = document.querySelector('.site-header')!.getBoundingClientRect();
              const ring = style.boxShadow !== 'none' || (style.outlineStyle !== 'none' && style.outlineWidth !== '0px');
              return { ring, hidden: box.top < header.bottom && box.bottom > header.top };
            });
            expect(visible, `${desc}: focus ring, not under the header`).toEqual({ ring: true, hidden: false });
            return;
          }
        }
        throw new Error('never reached by Tab');
      };
      // Tabs: Tab reaches the selected tab, the arrow key moves to the next one and selects it.
      await tabTo((d) => d.includes(`|tab|`) && d.endsWith(m.tabs.code));
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('tab', { name: m.tabs.password })).toBeFocused();
      await expect(page.getByRole('tab', { name: m.tabs.password })).toHaveAttribute('aria-selected', 'true');
      await tabTo((d) => d.includes(`|tab|`) && d.endsWith(m.tabs.phone));
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('tab', { name: m.tabs.email })).toHaveAttribute('aria-selected', 'true');
      await tabTo((d) => d.startsWith('input|') && d.includes('|email|'));
      await page.keyboard.type(email);
      await tabTo((d) => d.startsWith('input|') && d.includes('|password|'));
      await page.keyboard.type('harbour2024');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/create_account$/);
    });
  });
}

test.describe('layout at 320 px and at 200% zoom', () => {
  const shots: { name: string; width: number; zoom: number }[] = [
    { name: '320', width: 320, zoom: 1 },
    // 200% zoom of a 1280 px window, as the brief sets it: a 640 px viewport whose page is zoomed by CSS.
    { name: 'zoom200', width: 640, zoom: 2 },
  ];
  for (const lang of langs) {
    test(`/login and /create_account reflow without a sideways scroll (${lang})`, async ({ page }) => {
      const email = uniqueEmail('axe-shot');
      await seedUser(page.request, { email, password: 'harbour2024', userType: 2, agreed: true });
      for (const shot of shots) {
        await page.setViewportSize({ width: shot.width, height: 800 });
        for (const path of ['/login', '/create_account']) {
          // /login signed out; /create_account signed in (a person with no company yet).
          await page.context().clearCookies({ name: 'portal_token' });
          if (path === '/create_account') await signInByRequest(page.request, email, 'harbour2024');
          await openInLanguage(page, lang, path);
          await settle(page);
          if (shot.zoom !== 1) await page.evaluate((zoom) => (document.body.style.zoom = String(zoom)), shot.zoom);
          await shoot(page, `a11y-${lang}-${path.slice(1)}-${shot.name}`);
          // Nothing may scroll sideways: the content reflows into the width it has (WCAG 1.4.10).
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect.soft(overflow, `${path} ${shot.name} scrolls sideways`).toBeLessThanOrEqual(0);
        }
      }
    });
  }
});

for (const lang of langs) {
  const t = messages[lang];
  const o = consoleMessages[lang];

  test(`the operator console: its sign-in and enrolment pages, signed out, have no axe violations (${lang})`, async ({ page }) => {
    const axe = collector();
    for (const path of ['/ops/login', '/ops/enrol']) {
      await openInLanguage(page, lang, path);
      await settle(page);
      await axe.check(page, `${path} (signed out)`);
    }
    axe.assertNone();
  });

  test(`the operator console: every page as an admin has no axe violations (${lang})`, async ({ page, operatorPage }) => {
    // Nine pages, each settled and checked: more than the default 30 s on a shared machine.
    test.setTimeout(90_000);
    const axe = collector();
    await operatorPage('admin', { name: 'Axe Operator' });
    // /ops/company needs a company (the next test); /ops/clients is oidc-clients.spec.ts's, which runs axe on it
    // (its empty list in zh breaks axe's p-as-heading rule: reported, not hidden here by a weaker rule set).
    for (const shell of opsShells.filter((s) => !['ops/login', 'ops/enrol', 'ops/company', 'ops/clients'].includes(s))) {
      await openInLanguage(page, lang, `/${shell}`);
      await settle(page);
      await axe.check(page, `/${shell}`);
    }
    axe.assertNone();
  });

  test(`the operator console: the queue with a result, a company's review page and its decision form have no axe violations (${lang})`, async ({ page, newPage, operatorPage }) => {
    const axe = collector();
    const { name, companyId } = await createCompany(await newPage(), lang);
    await operatorPage('reviewer');
    const r = o.opsReview;
    await openInLanguage(page, lang, '/ops/companies');
    await page.getByLabel(r.search).fill(name);
    await page.getByRole('button', { name: r.apply }).click();
    await expect(page.getByRole('status').filter({ hasText: r.found.replace('{n}', '1') })).toBeVisible();
    await axe.check(page, '/ops/companies (a search with a result)');
    await openInLanguage(page, lang, `/ops/company?companyId=${companyId}`);
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await settle(page);
    await axe.check(page, '/ops/company (awaiting review, with documents)');
    await page.getByRole('button', { name: r.actions.requestInformation }).click();
    await page.getByRole('button', { name: r.confirm.replace('{action}', r.actions.requestInformation) }).click();
    await expect(page.getByLabel(r.reason)).toHaveAttribute('aria-invalid', 'true');
    await axe.check(page, '/ops/company (the decision form, a reason missing)');
    axe.assertNone();
  });

  test(`the operator console: a person held back, an action's dialog and the audit trail have no axe violations (${lang})`, async ({ page, request, operatorPage }) => {
    const axe = collector();
    const email = uniqueEmail('axe-ops');
    const realName = `Axe Person ${Date.now().toString(36)}`;
    const userId = await seedUser(request, { email, password: 'harbour2024', agreed: true, realName });
    const { createHash } = await import('node:crypto');
    for (let i = 0; i < 3; i++) {
      const wrong = await request.post('/api/agg-web/user/v3/userLogin', {
        data: { loginEmail: email, loginPassword: createHash('sha256').update(`wrong${i}x`).digest('hex'), passwordVersion: 2, captchaType: 3, grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' },
      });
      expect(((await wrong.json()) as { code: string }).code).toBe('US0010');
    }
    await operatorPage('support');
    const p = o.opsPeople;
    await openInLanguage(page, lang, '/ops/people');
    await page.getByLabel(p.searchLabel).fill(email);
    await page.getByRole('button', { name: p.search, exact: true }).click();
    await page.getByRole('region', { name: p.resultsTable }).getByRole('button', { name: realName }).click();
    await expect(page.getByRole('heading', { level: 2, name: realName })).toBeVisible();
    await axe.check(page, '/ops/people (a person held back)');
    await page.getByRole('button', { name: p.actions.unlock, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: p.actions.unlock });
    await dialog.getByRole('button', { name: p.confirm }).click();
    await expect(dialog.getByText(p.reasonRequired)).toBeVisible();
    await axe.check(page, '/ops/people (the unlock dialog, a reason missing)', 'dialog');
    await openInLanguage(page, lang, `/ops/audit?target=${encodeURIComponent(userId)}`);
    await expect(page.getByLabel(p.audit.target)).toHaveValue(userId);
    await settle(page);
    await axe.check(page, '/ops/audit (filtered to a person)');
    axe.assertNone();
  });

  test(`the operator console: the delivery view with a failure and its figures has no axe violations (${lang})`, async ({ page, request, operatorPage }) => {
    const mobile = uniqueMobile();
    await failDelivery(request, 'aliyun', `+86${mobile}`);
    try {
      expect(await sendSmsCode(request, mobile)).toBe('0');
    } finally {
      // The worker's next test meets healthy providers (scripts/serve-e2e.mjs runs the deployed breakers).
      await shutDeliveryBreakers(request);
    }
    await operatorPage('support');
    const d = o.opsDelivery;
    await openInLanguage(page, lang, '/ops/delivery');
    const aliyun = page.getByRole('region', { name: d.providers.aliyun, exact: true });
    await expect(aliyun.getByText(/stand-in down/).first()).toBeVisible();
    await aliyun.getByText(d.figuresTitle).click();
    await expect(aliyun.getByRole('region', { name: `${d.providers.aliyun}: ${d.figuresTitle}` })).toBeVisible();
    const axe = collector();
    await axe.check(page, '/ops/delivery (a failure, the figures open)');
    axe.assertNone();
  });

  test(`the offer when every SMS provider is down has no axe violations (${lang})`, async ({ page, request }) => {
    const mobile = uniqueMobile();
    await seedUser(request, { phone: { callingCode: '+86', mobile }, password: 'harbour2024', userType: 2, agreed: true });
    for (const provider of ['aliyun', 'tencent'] as const) await failDelivery(request, provider, `+86${mobile}`);
    try {
      await openInLanguage(page, lang, '/login');
      await page.getByLabel(t.signIn.phone, { exact: true }).fill(mobile);
      const challenge = sliderChallenge(page);
      await page.getByRole('button', { name: t.signIn.getCode }).click();
      await passSlider(page, challenge);
      await expect(page.getByRole('region', { name: t.signIn.smsDown.title }).getByText(t.signIn.smsDown.text)).toBeVisible();
      const axe = collector();
      await axe.check(page, '/login (every SMS provider down)');
      axe.assertNone();
    } finally {
      // The worker's next test meets healthy providers (scripts/serve-e2e.mjs runs the deployed breakers).
      await shutDeliveryBreakers(request);
    }
  });

  test(`two-step verification: enrolment, the recovery codes, the second step of sign-in and its recovery code have no axe violations (${lang})`, async ({ page, person }) => {
    const tw = t.twoStep;
    const axe = collector();
    await signInByRequest(page.request, person.email, person.password);
    await openInLanguage(page, lang, '/user_center#security');
    await page.getByRole('button', { name: tw.turnOn }).click();
    await expect(page.getByRole('img', { name: tw.qrLabel })).toBeVisible();
    await axe.check(page, '/user_center (two-step: the QR code)');
    const secret = (await page.locator('[data-two-step-secret]').innerText()).replace(/\s/g, '');
    await page.getByLabel(tw.codeLabel).fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await page.getByRole('button', { name: tw.finish }).click();
    await expect(page.locator('[data-recovery-codes] code')).toHaveCount(10);
    await axe.check(page, '/user_center (two-step: the recovery codes)');
    await page.goto('about:blank');
    await page.context().clearCookies();
    await signInByEmail(page, lang, person.email, person.password);
    await expect(page.getByRole('heading', { name: tw.title })).toBeFocused();
    await axe.check(page, '/login (the second step)');
    await page.getByRole('button', { name: tw.useRecovery }).click();
    await expect(page.getByLabel(tw.recoveryLabel)).toBeVisible();
    await axe.check(page, '/login (the second step, a recovery code)');
    axe.assertNone();
  });

  test(`the company cards of /account: more information asked for, two-step required (${lang})`, async ({ page }) => {
    const email = uniqueEmail('axe-cards');
    const stamp = `${Date.now()} ${Math.floor(Math.random() * 1e6)}`;
    await seedUser(page.request, {
      email,
      password: 'harbour2024',
      userType: 2,
      agreed: true,
      companies: [
        { nameEn: `Asked Lines ${stamp}`, status: 'additionalInformationRequired', role: 'administrator' },
        { nameEn: `Two Step Lines ${stamp}`, role: 'staff', requireTwoStep: true },
      ],
    });
    await signInByRequest(page.request, email, 'harbour2024');
    await openInLanguage(page, lang, '/account');
    await settle(page);
    await expect(page.getByText(t.account.enterOnceTwoStep)).toBeVisible();
    const axe = collector();
    await axe.check(page, '/account (a company asked for more information, one requiring two-step)');
    axe.assertNone();
  });
}
