import { expect, test } from './fixtures';
import { messages } from '../../src/i18n';
import { langs } from '../../src/lib/lang';
import { openInLanguage } from './helpers';

// Issue 30: a real name with a text-direction override is refused next to its field, in the page's language. The
// gateway's own refusal (and that the old name is kept): invisible-characters.test.ts, "refuses them in a real name".
for (const lang of langs) {
  const t = messages[lang];
  const u = t.userCenter;
  test(`a real name with a hidden character is refused at the field (${lang})`, async ({ signedIn: page }) => {
    await openInLanguage(page, lang, '/user_center');
    await page.getByRole('button', { name: u.editProfile }).click();
    const name = page.getByLabel(u.realName);
    await name.fill('Zhang \u202enaS');
    await page.getByRole('button', { name: u.save, exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: t.errors.hiddenCharacters })).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
  });
}
