import { map } from 'nanostores';
import { membersApi } from '../api/members';
import type { ApiResult } from '../api/result';
import { problemOf, type Problem } from '../i18n/problem';
import type { GrantedModule, MemberRole } from '../schemas/onboarding';
import { $userCenter, say } from './user-center';
import { reloadMembers } from './user-center-actions';

/**
 * An administrator manages the members of a company in the user center: role, removal (asked first), and the
 * modules of each staff member (a dialog of switches, each saved at once). After every answer the company's
 * members are read again, so a change made meanwhile by another administrator shows as it stands.
 */

/** The member an action is about, with the names the dialogs and notices say. */
export interface MemberTarget {
  companyId: string;
  userId: string;
  name: string;
  company: string;
}

export const $members = map({
  /** The removal waiting for the administrator's confirmation. */
  removing: null as MemberTarget | null,
  /** The staff member whose modules the dialog shows. */
  granting: null as MemberTarget | null,
});

/** Runs one change for `target` (one at a time, like the join answers), then re-reads the members. */
async function act(target: MemberTarget, call: () => Promise<ApiResult<unknown>>, notice: Problem): Promise<boolean> {
  if ($userCenter.get().busyMember) return false;
  $userCenter.setKey('busyMember', `${target.companyId}/${target.userId}`);
  const answer = await call();
  await reloadMembers(target.companyId);
  $userCenter.setKey('busyMember', '');
  if (!answer.ok) {
    say(null, problemOf(answer));
    return false;
  }
  say(notice);
  return true;
}

export const changeRole = (target: MemberTarget, role: MemberRole) =>
  act(target, () => membersApi.changeRole({ companyId: target.companyId, userId: target.userId, role }), {
    key: 'members.roleChanged',
    values: { name: target.name, role: { key: role === 'administrator' ? 'account.roles.administrator' : 'account.roles.staff' } },
  });

export const askRemove = (target: MemberTarget) => {
  if (!$userCenter.get().busyMember) $members.setKey('removing', target);
};
export const cancelRemove = () => $members.setKey('removing', null);
export async function confirmRemove() {
  const target = $members.get().removing;
  if (!target) return;
  $members.setKey('removing', null);
  await act(target, () => membersApi.remove(target.companyId, target.userId), { key: 'members.removed', values: { name: target.name } });
}

export const openModules = (target: MemberTarget) => $members.setKey('granting', target);
export const closeModules = () => $members.setKey('granting', null);

/** Shows a switch as the administrator set it while the call runs; the members read afterwards say what stands. */
function showGrant(target: MemberTarget, key: string, granted: boolean) {
  const administered = $userCenter.get().administered.map((company) =>
    company.companyId !== target.companyId
      ? company
      : {
          ...company,
          members: company.members.map((member) =>
            member.userId !== target.userId
              ? member
              : { ...member, modules: granted ? [...(member.modules ?? []), key] : (member.modules ?? []).filter((k) => k !== key) },
          ),
        },
  );
  $userCenter.setKey('administered', administered);
}

/** Grants or withdraws one module of the staff member whose dialog is open. */
export async function setModule(module: GrantedModule, granted: boolean) {
  const target = $members.get().granting;
  if (!target || $userCenter.get().busyMember) return;
  showGrant(target, module.key, granted);
  await act(target, () => membersApi.setModule({ companyId: target.companyId, userId: target.userId, module: module.key, granted }), {
    key: granted ? 'members.granted' : 'members.withdrawn',
    values: { module: module.name, name: target.name },
  });
}
