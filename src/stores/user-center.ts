import { map } from 'nanostores';
import { accountApi } from '../api/account';
import { membersApi } from '../api/members';
import { onboardingApi } from '../api/onboarding';
import { problemOf, type Problem } from '../i18n/problem';
import { dropKeptForms } from '../lib/kept-forms';
import { clearRoleList, writeRoleList } from '../lib/role-list-cache';
import type { CompanyListItem } from '../schemas/company-list';
import { hiddenCharacterIn } from '../schemas/display-text';
import { isoDateSchema, type CompanyMember, type CompanyMembersAnswer, type GrantedModule } from '../schemas/onboarding';
import { birthdayProblem, REAL_NAME_MAX, type MeAnswer, type Sex } from '../schemas/profile';
import { SESSION_KEYS } from './browser';
import { createForm, submitChecked } from './form';


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

function takePasswordChanged(): boolean {
  const changed = sessionStorage.getItem(SESSION_KEYS.passwordChanged) !== null;
  sessionStorage.removeItem(SESSION_KEYS.passwordChanged);
  return changed;
}
const administeredOf = (answer: CompanyMembersAnswer): AdministeredCompany => ({
  companyId: answer.companyId,
  invitationCode: answer.invitationCode,
  members: answer.members,
  modules: answer.modules ?? [],
});

export async function loadUserCenter() {
  const [me, list] = await Promise.all([onboardingApi.fetchMe(), accountApi.companyList()]);
  const companies = list.ok ? list.data : [];
  if (list.ok) void writeRoleList(companies.map((c) => ({ companyId: c.companyId, role: c.role, companyType: c.companyType })));
  const administeredIds = companies.filter((c) => c.role === 'administrator').map((c) => c.companyId);
  const failed = !me.ok ? me : !list.ok ? list : null;
  // The profile and the companies paint as soon as they are read (Lighthouse's LCP is the profile's heading);
  // each administered company's part shows a placeholder of its usual height until its members are read.
  $userCenter.set({
    ...$userCenter.get(),
    // Back from a password change: the confirmation stays until the next piece of news.
    notice: takePasswordChanged() ? { key: 'userCenter.passwordChanged' } : $userCenter.get().notice,
    phase: 'ready',
    me: me.ok ? me.data : null,
    companies,
    administered: [],
    administeredLoading: administeredIds,
    error: failed ? failure(failed) : null,
  });
  // The profile editor was open when the session ended: it opens again with what was typed.
  if (me.ok) profile.restoreKept();
  const administered = await Promise.all(
    administeredIds.map(async (companyId): Promise<AdministeredCompany | null> => {
      const answer = await onboardingApi.members(companyId);
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
  const answer = await onboardingApi.regenerateInvitation(companyId);
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

/** Uploads an image and makes it the person's photo; the previous photo's file is deleted. */
export async function uploadPhoto(file: File) {
  const previous = $userCenter.get().me?.photo?.split('/').pop();
  const uploaded = await onboardingApi.uploadFiles([file], 'logo');
  if (!uploaded.ok) return say(null, failure(uploaded));
  const answer = await membersApi.setPhoto(uploaded.data[0]!.id);
  if (!answer.ok) return say(null, failure(answer));
  $userCenter.setKey('me', answer.data);
  if (previous) void onboardingApi.deleteFiles([decodeURIComponent(previous)]);
  say({ key: 'members.photoSaved' });
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

function setMemberStatus(companyId: string, userId: string, status: CompanyMember['status']) {
  const administered = $userCenter
    .get()
    .administered.map((a) =>
      a.companyId === companyId ? { ...a, members: a.members.map((m) => (m.userId === userId ? { ...m, status } : m)) } : a,
    );
  $userCenter.setKey('administered', administered);
}

/**
 * Re-reads one company's members: after a change here, or an answer given elsewhere (another administrator,
 * another tab). A company the person no longer administers leaves the list.
 */
export async function reloadMembers(companyId: string) {
  const answer = await onboardingApi.members(companyId);
  if (!answer.ok && answer.code !== 'CO0008' && answer.code !== 'CO0009') return;
  const administered = $userCenter
    .get()
    .administered.flatMap((a) => (a.companyId !== companyId ? [a] : answer.ok ? [administeredOf(answer.data)] : []));
  $userCenter.setKey('administered', administered);
}

async function answerJoin(companyId: string, userId: string, name: string, decision: 'approve' | 'decline') {
  if ($userCenter.get().busyMember) return;
  $userCenter.set({ ...$userCenter.get(), busyMember: `${companyId}/${userId}`, declining: null });
  const answer = decision === 'approve' ? await onboardingApi.approveMember(companyId, userId) : await onboardingApi.declineMember(companyId, userId);
  $userCenter.setKey('busyMember', '');
  if (!answer.ok) {
    // Answered the other way meanwhile, or gone: the list shows how things stand now.
    await reloadMembers(companyId);
    return say(null, failure(answer));
  }
  setMemberStatus(companyId, userId, answer.data.status);
  say({ key: decision === 'approve' ? 'userCenter.approved' : 'userCenter.declined', values: { name } });
}

export const approveMember = (companyId: string, userId: string, name: string) => answerJoin(companyId, userId, name, 'approve');

/** Declining asks first (a confirmation dialog); `confirmDecline` answers. */
export function askDecline(companyId: string, userId: string, name: string, company: string) {
  if (!$userCenter.get().busyMember) $userCenter.setKey('declining', { companyId, userId, name, company });
}
export const cancelDecline = () => $userCenter.setKey('declining', null);
export async function confirmDecline() {
  const declining = $userCenter.get().declining;
  if (declining) await answerJoin(declining.companyId, declining.userId, declining.name, 'decline');
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
const profile = createForm<ProfileDraft, ProfileField>(emptyDraft, {
  // Where a gateway problem's `path` goes on the form; the form-level alert says it as well.
  paths: { realName: 'realName', countryId: 'country', birthday: 'birthday', sex: 'sex' },
  alsoOnForm: true,
  keep: { name: 'profile', values: ['open', 'realName', 'country', 'birthday', 'sex'], when: (d) => d.open },
});
export const $profileDraft = profile.$values;
export const $profileErrors = profile.$errors;

export function openProfileEditor() {
  const me = $userCenter.get().me;
  profile.reset({
    open: true,
    realName: me?.realName ?? '',
    country: me?.countryId ? { id: me.countryId, name: me.countryName ?? me.countryId } : null,
    birthday: me?.birthday ?? '',
    sex: me?.sex === 'male' || me?.sex === 'female' ? me.sex : '',
  });
}

export const closeProfileEditor = () => profile.reset();

export const setProfileField = <K extends Exclude<keyof ProfileDraft, 'open'>>(key: K, value: ProfileDraft[K]) => profile.set(key, value);

const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');

/** The rules of updateUserInfo, checked before sending: true when the draft may be sent. */
export function validateProfile(): boolean {
  const d = $profileDraft.get();
  const errors: Partial<Record<ProfileField, Problem>> = {};
  const name = collapse(d.realName);
  if (!name) errors.realName = { key: 'userCenter.profileErrors.realNameRequired' };
  else if (name.length > REAL_NAME_MAX) errors.realName = { key: 'userCenter.profileErrors.realNameTooLong' };
  else if (hiddenCharacterIn(name)) errors.realName = { key: 'errors.hiddenCharacters' };
  if (d.birthday && (!isoDateSchema.safeParse(d.birthday).success || birthdayProblem(d.birthday, Date.now()))) {
    errors.birthday = { key: 'userCenter.profileErrors.birthdayInvalid' };
  }
  return profile.check(errors);
}

export function saveProfile() {
  return submitChecked(profile, validateProfile, { key: 'userCenter.profileErrors.errorSummary' }, async () => {
    const d = $profileDraft.get();
    const answer = await onboardingApi.updateUserInfo({
      realName: collapse(d.realName),
      countryId: d.country?.id ?? null,
      birthday: d.birthday || null,
      sex: d.sex || null,
    });
    if (!answer.ok) return profile.failure(answer);
    $userCenter.setKey('me', answer.data);
    closeProfileEditor();
    say({ key: 'userCenter.saved' });
  });
}
