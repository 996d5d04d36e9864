import { map } from 'nanostores';
import { authApi } from '../api/auth';
import { NETWORK_ERROR, type ApiResult } from '../api/client';
import { onboardingApi } from '../api/onboarding';
import type { Messages } from '../i18n';
import { clearRoleList, writeRoleList } from '../lib/role-list-cache';
import type { CompanyListItem, MeAnswer } from '../schemas/auth';
import type { CompanyMember } from '../schemas/onboarding';

export type UserCenterMessages = Pick<Messages, 'userCenter' | 'errors'>;
let t: UserCenterMessages;

/** What an administrator sees of one of their companies: its invitation code and its members. */
export interface AdministeredCompany {
  companyId: string;
  invitationCode: string | null;
  members: CompanyMember[];
}

export const $userCenter = map({
  phase: 'loading' as 'loading' | 'ready',
  me: null as MeAnswer | null,
  companies: [] as CompanyListItem[],
  administered: [] as AdministeredCompany[],
  /** The company whose code is being regenerated. */
  busyId: '',
  notice: '',
  error: '',
});

const failureText = (result: Extract<ApiResult<unknown>, { ok: false }>) =>
  result.code === NETWORK_ERROR ? t.errors.network : result.message || t.errors.generic;

export async function loadUserCenter(messages: UserCenterMessages) {
  t = messages;
  const [me, list] = await Promise.all([onboardingApi.fetchMe(), authApi.companyList()]);
  const companies = list.ok ? list.data : [];
  if (list.ok) writeRoleList(companies.map((c) => ({ companyId: c.companyId, role: c.role, companyType: c.companyType })));
  const administered = await Promise.all(
    companies
      .filter((c) => c.role === 'administrator')
      .map(async (c): Promise<AdministeredCompany | null> => {
        const answer = await onboardingApi.members(c.companyId);
        return answer.ok ? { companyId: c.companyId, invitationCode: answer.data.invitationCode, members: answer.data.members } : null;
      }),
  );
  const failed = !me.ok ? me : !list.ok ? list : null;
  $userCenter.set({
    ...$userCenter.get(),
    phase: 'ready',
    me: me.ok ? me.data : null,
    companies,
    administered: administered.filter((a): a is AdministeredCompany => a !== null),
    error: failed ? failureText(failed) : '',
  });
}

/** The time a "copied" or "regenerated" notice stays (it is also announced). */
const NOTICE_MS = 4000;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;
function say(notice: string, error = '') {
  clearTimeout(noticeTimer);
  $userCenter.set({ ...$userCenter.get(), notice, error });
  if (notice) noticeTimer = setTimeout(() => $userCenter.setKey('notice', ''), NOTICE_MS);
}

export async function copyInvitationCode(code: string) {
  try {
    await navigator.clipboard.writeText(code);
    say(t.userCenter.copied);
  } catch {
    say('', t.userCenter.copyFailed);
  }
}

/** A new code for the company; the old one stops working at once (the gateway replaces it). */
export async function regenerateInvitationCode(companyId: string) {
  if ($userCenter.get().busyId) return;
  $userCenter.setKey('busyId', companyId);
  const answer = await onboardingApi.regenerateInvitation(companyId);
  if (!answer.ok) {
    $userCenter.setKey('busyId', '');
    return say('', failureText(answer));
  }
  const administered = $userCenter
    .get()
    .administered.map((a) => (a.companyId === companyId ? { ...a, invitationCode: answer.data.invitationCode } : a));
  $userCenter.set({ ...$userCenter.get(), administered, busyId: '' });
  say(t.userCenter.regenerated);
}

export async function signOut() {
  await authApi.logout();
  clearRoleList();
  location.assign('/login');
}
