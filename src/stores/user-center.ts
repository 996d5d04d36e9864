import { map } from 'nanostores';
import { accountApi } from '../api/account';
import { companyMembersApi } from '../api/company-members';
import { meApi } from '../api/me';
import { CONNECTION_ERROR, NETWORK_ERROR } from '../api/result';
import { problemOf, type Problem } from '../i18n/problem';
import { dropKeptForms } from '../lib/kept-forms';
import { loadOnce } from '../lib/load-once';
import { clearRoleList, writeRoleList } from '../lib/role-list-cache';
import type { CompanyListItem } from '../schemas/company-list';
import type { CompanyMember, CompanyMembersAnswer, GrantedModule } from '../schemas/company-members';
import type { MeAnswer, Sex } from '../schemas/profile';
import { SESSION_KEYS } from './browser';
import { createForm } from './form';

/**
 * The user center's first paint: the person, their companies, each administered company's members and code.
 * What happens after a click loads then (issue 31): a new photo and the answers to staff joins in
 * user-center-actions.ts, the profile editor's checks and save in profile-editor.ts.
 */


/** What an administrator sees of one of their companies: its invitation code, its members and its modules. */
export interface AdministeredCompany {
  companyId: string;
  invitationCode: string | null;
  members: CompanyMember[];
  modules: GrantedModule[];
}

export const $userCenter = map({
  phase: 'loading' as 'loading' | 'ready',
  me: null as MeAnswer | null,
  companies: [] as CompanyListItem[],
  administered: [] as AdministeredCompany[],
  /** Administered companies whose members are still being read (a placeholder holds their part's place). */
  administeredLoading: [] as string[],
  /** The company whose code is being regenerated. */
  busyId: '',
  /** `companyId/userId` of the join being answered; other answers wait. */
  busyMember: '',
  /** The decline waiting for the administrator's confirmation. */
  declining: null as { companyId: string; userId: string; name: string; company: string } | null,
  /** Good and bad news, said by the island. */
  notice: null as Problem | null,
  error: null as Problem | null,
});

const failure = problemOf;

/** Back from /change_password: 'set' for a first password (issue 47: not "changed"), else 'changed'; null when not. */
function takePasswordChanged(): 'set' | 'changed' | null {
  const value = sessionStorage.getItem(SESSION_KEYS.passwordChanged);
  sessionStorage.removeItem(SESSION_KEYS.passwordChanged);
  return value === null ? null : value === 'set' ? 'set' : 'changed';
}
export const administeredOf = (answer: CompanyMembersAnswer): AdministeredCompany => ({
  companyId: answer.companyId,
  invitationCode: answer.invitationCode,
  members: answer.members,
  modules: answer.modules ?? [],
});

export async function loadUserCenter() {
  const [me, list] = await Promise.all([meApi.fetchMe(), accountApi.companyList()]);
  const companies = list.ok ? list.data : [];
  if (list.ok) void writeRoleList(companies.map((c) => ({ companyId: c.companyId, role: c.role, companyType: c.companyType })));
  const administeredIds = companies.filter((c) => c.role === 'administrator').map((c) => c.companyId);
  const failed = !me.ok ? me : !list.ok ? list : null;
  const back = takePasswordChanged();
  // The profile and the companies paint as soon as they are read (Lighthouse's LCP is the profile's heading);
  // each administered company's part shows a placeholder of its usual height until its members are read.
  $userCenter.set({
    ...$userCenter.get(),
    // Back from a password change: the confirmation stays until the next piece of news.
    notice: back ? { key: back === 'set' ? 'userCenter.passwordSet' : 'userCenter.passwordChanged' } : $userCenter.get().notice,
    phase: 'ready',
    me: me.ok ? me.data : null,
    companies,
    administered: [],
    administeredLoading: administeredIds,
    error: failed ? failure(failed) : null,
  });
  // The profile editor was open when the session ended: it opens again with what was typed.
  if (me.ok) profileForm.restoreKept();
  const administered = await Promise.all(
    administeredIds.map(async (companyId): Promise<AdministeredCompany | null> => {
      const answer = await companyMembersApi.members(companyId);
      return answer.ok ? administeredOf(answer.data) : null;
    }),
  );
  $userCenter.set({
    ...$userCenter.get(),
    administered: administered.filter((a): a is AdministeredCompany => a !== null),
    administeredLoading: [],
  });
}

/** The time a "copied" or "regenerated" notice stays (it is also announced). */
const NOTICE_MS = 4000;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;
/** Says good news (for a few seconds) or a problem in the user center's live region. */
export function say(notice: Problem | null, error: Problem | null = null) {
  clearTimeout(noticeTimer);
  $userCenter.set({ ...$userCenter.get(), notice, error });
  if (notice) noticeTimer = setTimeout(() => $userCenter.setKey('notice', null), NOTICE_MS);
}

export async function copyInvitationCode(code: string) {
  try {
    await navigator.clipboard.writeText(code);
    say({ key: 'userCenter.copied' });
  } catch {
    say(null, { key: 'userCenter.copyFailed' });
  }
}

/** A new code for the company; the old one stops working at once (the gateway replaces it). */
export async function regenerateInvitationCode(companyId: string) {
  if ($userCenter.get().busyId) return;
  $userCenter.setKey('busyId', companyId);
  const answer = await companyMembersApi.regenerateInvitation(companyId);
  if (!answer.ok) {
    $userCenter.setKey('busyId', '');
    return say(null, failure(answer));
  }
  const administered = $userCenter
    .get()
    .administered.map((a) => (a.companyId === companyId ? { ...a, invitationCode: answer.data.invitationCode } : a));
  $userCenter.set({ ...$userCenter.get(), administered, busyId: '' });
  say({ key: 'userCenter.regenerated' });
}


const importActions = loadOnce(() => import('./user-center-actions'));
/** The code of a click (a new photo, an answer to a join): loaded once; a failed load is said and tried again next time. */
async function loadActions() {
  const loaded = await importActions().catch(() => undefined);
  if (!loaded) say(null, { code: typeof navigator !== 'undefined' && !navigator.onLine ? NETWORK_ERROR : CONNECTION_ERROR });
  return loaded;
}

/** Uploads an image and makes it the person's photo (user-center-actions.ts). */
export async function uploadPhoto(file: File) {
  await (await loadActions())?.uploadPhoto(file);
}

export async function signOut() {
  await accountApi.logout();
  dropKeptForms();
  await clearRoleList();
  location.assign('/login');
}

// ---------------------------------------------------------------------------------------------------------
// Answering staff joins (administrator)
// ---------------------------------------------------------------------------------------------------------

/** Declining asks first (a confirmation dialog); `confirmDecline` answers. */
export function askDecline(companyId: string, userId: string, name: string, company: string) {
  if (!$userCenter.get().busyMember) $userCenter.setKey('declining', { companyId, userId, name, company });
}
export const cancelDecline = () => $userCenter.setKey('declining', null);
/** The confirmation's answer: the decline is sent (user-center-actions.ts). */
export async function confirmDecline() {
  await (await loadActions())?.confirmDecline();
}

// ---------------------------------------------------------------------------------------------------------
// Editing one's own profile
// ---------------------------------------------------------------------------------------------------------

export type ProfileField = 'realName' | 'country' | 'birthday' | 'sex';

const emptyDraft = {
  /** Whether the editor shows. */
  open: false,
  realName: '',
  country: null as { id: string; name: string } | null,
  birthday: '',
  sex: '' as Sex | '',
};
export type ProfileDraft = typeof emptyDraft;

/** The profile editor: whether it is open, its fields, and their errors. */
export const profileForm = createForm<ProfileDraft, ProfileField>(emptyDraft, {
  // Where a gateway problem's `path` goes on the form; the form-level alert says it as well.
  paths: { realName: 'realName', countryId: 'country', birthday: 'birthday', sex: 'sex' },
  alsoOnForm: true,
  keep: { name: 'profile', values: ['open', 'realName', 'country', 'birthday', 'sex'], when: (d) => d.open },
});
export const $profileDraft = profileForm.$values;
export const $profileErrors = profileForm.$errors;

export function openProfileEditor() {
  const me = $userCenter.get().me;
  profileForm.reset({
    open: true,
    realName: me?.realName ?? '',
    country: me?.countryId ? { id: me.countryId, name: me.countryName ?? me.countryId } : null,
    birthday: me?.birthday ?? '',
    sex: me?.sex === 'male' || me?.sex === 'female' ? me.sex : '',
  });
}
