import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { openInLanguage, seedUser, signInByEmail, uniqueEmail } from './helpers';

const PASSWORD = 'harbour2024';

// Issue 30: a real name with a text-direction override is refused next to its field, in the page's language.
for (const lang of langs) {
  const t = messages[lang];
  const u = t.userCenter;
  test(`a real name with a hidden character is refused at the field (${lang})`, async ({ page }) => {
    const email = uniqueEmail(`invisible-${lang}`);
    await seedUser(page.request, { email, password: PASSWORD, userType: 1, realName: 'Zhang San', agreed: true });
    await signInByEmail(page, lang, email, PASSWORD);
    // The sign-in answer sets the session; opening the user center before it lands would meet the sign-in page.
    await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
    await openInLanguage(page, lang, '/user_center');
    await page.getByRole('button', { name: u.editProfile }).click();
    const name = page.getByLabel(u.realName);
    await name.fill('Zhang \u202enaS');
    await page.getByRole('button', { name: u.save, exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: t.errors.hiddenCharacters })).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
  });
}
