import { map } from 'nanostores';
import { authApi } from '../api/auth';
import { onboardingApi } from '../api/onboarding';
import type { ApiResult } from '../api/result';
import { problemOf, type Problem } from '../i18n/problem';
import { destinations } from '../lib/login-route';
import { dropKeptForms } from '../lib/kept-forms';
import { clearRoleList, writeRoleList } from '../lib/role-list-cache';
import type { CompanyListItem } from '../schemas/auth';


/** /account: the person's companies, which one is being opened, and good or bad news. */
export const $accounts = map({
  phase: 'loading' as 'loading' | 'ready',
  companies: [] as CompanyListItem[],
  /** The company being opened or marked main; other buttons wait. */
  busyId: '',
  /** Good and bad news, said by the island. */
  notice: null as Problem | null,
  error: null as Problem | null,
});

const failure = problemOf;

export async function loadAccounts() {
  const list = await authApi.companyList();
  if (!list.ok) {
    $accounts.set({ ...$accounts.get(), phase: 'ready', error: failure(list) });
    return;
  }
  const companies = list.data;
  void writeRoleList(companies.map((c) => ({ companyId: c.companyId, role: c.role, companyType: c.companyType })));
  $accounts.set({ ...$accounts.get(), phase: 'ready', companies, error: null });
}

/** The gateway says which companies can be entered (and be the main enterprise); others show their status. */
export const isEnterable = (company: Pick<CompanyListItem, 'canEnter'>) => company.canEnter === true;

/**
 * Where to go after choosing: a `redirect` query that is a plain path on this site goes there; any other
 * target goes through /login, where the edge re-checks it against its allow-list (a signed-in visitor of a
 * sign-in page is sent to the redirect, or to the portal when it is not allowed). Else the web app.
 */
export function destinationAfterChoice(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  if (!redirect) return destinations.webApp;
  if (/^\/(?![/\\])/.test(redirect) && !/[\s\\]/.test(redirect)) return redirect;
  if (/^https?:\/\//i.test(redirect)) return `/login?${new URLSearchParams({ redirect })}`;
  return destinations.webApp;
}

/** Runs one company's call with that company marked busy; a refusal shows its message. True when it went through. */
async function busyWith(companyId: string, call: () => Promise<ApiResult<unknown>>): Promise<boolean> {
  if ($accounts.get().busyId) return false;
  $accounts.set({ ...$accounts.get(), busyId: companyId, error: null, notice: null });
  const result = await call();
  if (!result.ok) $accounts.set({ ...$accounts.get(), busyId: '', error: failure(result) });
  return result.ok;
}

export async function chooseCompany(companyId: string) {
  if (await busyWith(companyId, () => authApi.chooseAccount(companyId))) location.assign(destinationAfterChoice(location.search));
}

/** Marks the main enterprise: later sign-ins open it without asking which company. */
export async function markMain(companyId: string) {
  if (!(await busyWith(companyId, () => onboardingApi.setMainAccount(companyId)))) return;
  const companies = $accounts.get().companies.map((c) => ({ ...c, isMain: c.companyId === companyId }));
  $accounts.set({ ...$accounts.get(), companies, busyId: '', notice: { key: 'account.mainSaved' } });
}

/** Sign out (the edge clears the session cookies whatever the gateway says), then the sign-in page. */
export async function signOut() {
  await authApi.logout();
  dropKeptForms();
  await clearRoleList();
  location.assign('/login');
}
