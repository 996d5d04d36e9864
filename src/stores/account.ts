import { map } from 'nanostores';
import { accountApi } from '../api/account';
import type { ApiResult } from '../api/result';
import { problemOf, type Problem } from '../i18n/problem';
import { dropKeptForms } from '../lib/kept-forms';
import { clearRoleList, writeRoleList } from '../lib/role-list-cache';
import type { CompanyListItem } from '../schemas/company-list';


/** /account: the person's companies, which one is being opened, and good or bad news. */
export const $accounts = map({
  phase: 'loading' as 'loading' | 'ready',
  companies: [] as CompanyListItem[],
  /** How many companies the person's company may act for (grants between companies, issue 41); the list loads with its section. */
  actingCount: 0,
  /** The company being opened or marked main; other buttons wait. */
  busyId: '',
  /** Good and bad news, said by the island. */
  notice: null as Problem | null,
  error: null as Problem | null,
});

const failure = problemOf;

export async function loadAccounts() {
  const list = await accountApi.companyList();
  if (!list.ok) {
    $accounts.set({ ...$accounts.get(), phase: 'ready', error: failure(list) });
    return;
  }
  const companies = list.data;
  void writeRoleList(companies.map((c) => ({ companyId: c.companyId, role: c.role, companyType: c.companyType })));
  $accounts.set({ ...$accounts.get(), phase: 'ready', companies, error: null });
  // Acting for another company is rarer: asked after the list is on screen, and its section's code loads only
  // when there is something to act under.
  if (companies.some(isEnterable)) {
    const acting = await accountApi.actingChoices();
    if (acting.ok) $accounts.set({ ...$accounts.get(), actingCount: acting.data.length });
  }
}

/** Acts for the grant's principal in this session (the person's own company stays theirs), then where they were going. */
export async function actFor(grantId: string) {
  const destination = import('./account-destination');
  const { grantsApi } = await import('../api/grants');
  if (await busyWith(grantId, () => grantsApi.actFor(grantId))) location.assign((await destination).destinationAfterChoice(location.search));
}

/** The gateway says which companies can be entered (and be the main enterprise); others show their status. */
export const isEnterable = (company: Pick<CompanyListItem, 'canEnter'>) => company.canEnter === true;

/** Runs one company's call with that company marked busy; a refusal shows its message. True when it went through. */
async function busyWith(companyId: string, call: () => Promise<ApiResult<unknown>>): Promise<boolean> {
  if ($accounts.get().busyId) return false;
  $accounts.set({ ...$accounts.get(), busyId: companyId, error: null, notice: null });
  const result = await call();
  if (!result.ok) $accounts.set({ ...$accounts.get(), busyId: '', error: failure(result) });
  return result.ok;
}

export async function chooseCompany(companyId: string) {
  // Where to go loads beside the call, not with the page (issue 31).
  const destination = import('./account-destination');
  if (await busyWith(companyId, () => accountApi.chooseAccount(companyId))) location.assign((await destination).destinationAfterChoice(location.search));
}

/** Marks the main enterprise: later sign-ins open it without asking which company. */
export async function markMain(companyId: string) {
  // The call and the onboarding contracts load with the click (issue 31).
  if (!(await busyWith(companyId, async () => (await import('../api/onboarding')).onboardingApi.setMainAccount(companyId)))) return;
  const companies = $accounts.get().companies.map((c) => ({ ...c, isMain: c.companyId === companyId }));
  $accounts.set({ ...$accounts.get(), companies, busyId: '', notice: { key: 'account.mainSaved' } });
}

/** Sign out (the edge clears the session cookies whatever the gateway says), then the sign-in page. */
export async function signOut() {
  await accountApi.logout();
  dropKeptForms();
  await clearRoleList();
  location.assign('/login');
}
