import * as ERR from '../schemas/error-names';
import { companyMembersApi } from '../api/company-members';
import { membersApi } from '../api/members';
import { onboardingApi } from '../api/onboarding';
import { problemOf } from '../i18n/problem';
import type { CompanyMember } from '../schemas/company-members';
import { $userCenter, administeredOf, say } from './user-center';

/**
 * What the user center does after a click: a new photo, the answers to staff joins, and the re-read of a company's
 * members after a change. Loaded then (user-center.ts's wrappers, the members' part), not with the first paint
 * (issue 31).
 */

const failure = problemOf;

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
  const answer = await companyMembersApi.members(companyId);
  if (!answer.ok && answer.code !== ERR.ADMINISTRATOR_ONLY && answer.code !== ERR.COMPANY_NOT_FOUND) return;
  const administered = $userCenter
    .get()
    .administered.flatMap((a) => (a.companyId !== companyId ? [a] : answer.ok ? [administeredOf(answer.data)] : []));
  $userCenter.setKey('administered', administered);
}

async function answerJoin(companyId: string, userId: string, name: string, decision: 'approve' | 'decline') {
  if ($userCenter.get().busyMember) return;
  $userCenter.set({ ...$userCenter.get(), busyMember: `${companyId}/${userId}`, declining: null });
  const answer = decision === 'approve' ? await companyMembersApi.approveMember(companyId, userId) : await companyMembersApi.declineMember(companyId, userId);
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


export async function confirmDecline() {
  const declining = $userCenter.get().declining;
  if (declining) await answerJoin(declining.companyId, declining.userId, declining.name, 'decline');
}
