import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { Messages } from '../../i18n';
import { joinList, type Lang } from '../../lib/lang';
import { $members, askRemove, cancelRemove, changeRole, closeModules, confirmRemove, openModules, setModule, type MemberTarget } from '../../stores/members';
import { $userCenter, askDecline, type AdministeredCompany } from '../../stores/user-center';
import { approveMember } from '../../stores/user-center-actions';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { Modal } from '../../ui/Modal';
import { EmailAddress } from '../../ui/EmailAddress';
import { ScrollTable } from '../../ui/ScrollTable';
import { format } from '../../i18n/format';

interface CompanyMembersProps {
  lang: Lang;
  company: AdministeredCompany;
  /** The company's name in the page's language. */
  companyName: string;
  messages: Pick<Messages, 'userCenter' | 'account' | 'members'>;
}

/**
 * An administrator's members of one company: name, contact, role, joined, status; the answer to a request to
 * join; and for active members the role switch, the modules of a staff member and removal.
 */
export function CompanyMembers({ lang, company, companyName, messages }: CompanyMembersProps) {
  const m = messages.userCenter;
  const t = messages.members;
  const s = useStore($userCenter);
  const me = s.me?.userId;
  const date = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium' });
  const busy = Boolean(s.busyMember);
  const shown = (value: string | null | undefined) => (value && value.trim() ? value : m.empty);
  // Requests waiting for the administrator come first, under the count that announces them.
  const membersInOrder = [...company.members].sort((x, y) => Number(y.status === 'pending') - Number(x.status === 'pending'));
  const administrators = company.members.filter((member) => member.role === 'administrator' && member.status === 'active').length;
  /** The member whose promotion to administrator waits for the confirmation (issue 33). */
  const [promoting, setPromoting] = useState<MemberTarget | null>(null);

  return (
    <>
      {/* Named apart from its section: two landmarks with one name cannot be told apart. */}
      <ScrollTable label={format(m.membersTable, { company: companyName })} className="members" columns={[m.memberName, m.memberRole, m.memberStatus]}>
        {/* Three columns, contact, joined and modules under the name, the actions under the status: they stay in view at 320 px. */}
        {membersInOrder.map((member) => {
          const who = shown(member.name) + (member.userId === me ? ` ${t.you}` : '');
          const target: MemberTarget = { companyId: company.companyId, userId: member.userId, name: shown(member.name), company: companyName };
          const pendingJoin = member.role === 'staff' && member.status === 'pending';
          const active = member.status === 'active';
          // The company always keeps an administrator (the gateway refuses otherwise): its only one is offered neither step.
          const onlyAdministrator = active && member.role === 'administrator' && administrators === 1;
          const granted = company.modules.filter((module) => member.modules?.includes(module.key));
          return (
            <tr key={member.userId} data-status={member.status} data-member={member.userId}>
              <td>
                <span className="member-name">{who}</span>
                <span className="member-contact">
                  <span className="visually-hidden">{m.memberContact}: </span>
                  {member.phone ? member.phone : member.email ? <EmailAddress value={member.email} /> : m.empty}
                </span>
                <span className="member-contact">{format(t.joinedOn, { date: date.format(member.joinedAt) })}</span>
                {active && member.role === 'staff' && (
                  <span className="member-contact member-modules">
                    <span className="visually-hidden">{t.modules}: </span>
                    {granted.length ? joinList(lang, granted.map((module) => module.name)) : t.noModulesGranted}
                  </span>
                )}
              </td>
              <td>{messages.account.roles[member.role]}</td>
              <td>
                <span className="badge" data-tone={active ? 'good' : member.status === 'pending' ? 'waiting' : 'bad'}>
                  {m.memberStatuses[member.status]}
                </span>
                <div className="member-actions" aria-busy={s.busyMember === `${company.companyId}/${member.userId}` || undefined}>
                  {pendingJoin && (
                    <>
                      <button type="button" className="button primary small" disabled={busy} aria-label={format(m.approveLabel, { name: target.name })} onClick={() => void approveMember(company.companyId, member.userId, target.name)}>
                        {m.approve}
                      </button>
                      <button type="button" className="button secondary small" disabled={busy} aria-label={format(m.declineLabel, { name: target.name })} onClick={() => askDecline(company.companyId, member.userId, target.name, companyName)}>
                        {m.decline}
                      </button>
                    </>
                  )}
                  {active && member.role === 'staff' && (
                    <button type="button" className="button secondary small" disabled={busy} aria-label={format(t.modulesLabel, { name: target.name })} onClick={() => openModules(target)}>
                      {t.modules}
                    </button>
                  )}
                  {onlyAdministrator && <span className="member-contact">{t.onlyAdministrator}</span>}
                  {active && !onlyAdministrator && (
                    <button
                      type="button"
                      className="button secondary small"
                      disabled={busy}
                      aria-label={format(member.role === 'staff' ? t.makeAdministratorLabel : t.makeStaffLabel, { name: target.name })}
                      onClick={() => (member.role === 'staff' ? setPromoting(target) : void changeRole(target, 'staff'))}
                    >
                      {member.role === 'staff' ? t.makeAdministrator : t.makeStaff}
                    </button>
                  )}
                  {!pendingJoin && !onlyAdministrator && (
                    <button type="button" className="button secondary small" disabled={busy} aria-label={format(t.removeLabel, { name: target.name })} onClick={() => askRemove(target)}>
                      {t.remove}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          );
        })}
      </ScrollTable>
      {promoting && (
        <ConfirmModal
          title={t.promoteTitle}
          text={format(t.promoteText, { name: promoting.name, company: promoting.company })}
          cancelLabel={t.cancel}
          confirmLabel={t.promoteConfirm}
          onCancel={() => setPromoting(null)}
          onConfirm={() => {
            setPromoting(null);
            void changeRole(promoting, 'administrator');
          }}
        />
      )}
      <MemberDialogs company={company} messages={messages} />
    </>
  );
}

/** The removal's confirmation and the modules dialog, for the member the store names (this company's only). */
function MemberDialogs({ company, messages }: Pick<CompanyMembersProps, 'company' | 'messages'>) {
  const t = messages.members;
  const { removing, granting } = useStore($members);
  const busy = Boolean(useStore($userCenter).busyMember);
  const member = granting?.companyId === company.companyId ? company.members.find((m) => m.userId === granting.userId) : undefined;

  return (
    <>
      {removing?.companyId === company.companyId && (
        <ConfirmModal
          title={t.removeTitle}
          text={format(t.removeText, { name: removing.name, company: removing.company })}
          cancelLabel={t.cancel}
          confirmLabel={t.removeConfirm}
          onCancel={cancelRemove}
          onConfirm={() => void confirmRemove()}
        />
      )}
      {granting && member && (
        <Modal title={format(t.modulesTitle, { name: granting.name })} onCancel={closeModules}>
          <p className="hint">{t.modulesHint}</p>
          <fieldset className="module-list" aria-busy={busy || undefined}>
            <legend className="visually-hidden">{format(t.modulesTitle, { name: granting.name })}</legend>
            {company.modules.map((module) => {
              const on = member.modules?.includes(module.key) ?? false;
              return (
                <label key={module.key} className="check">
                  <input type="checkbox" checked={on} disabled={busy} onChange={(event) => void setModule(module, event.target.checked)} />
                  <span>{module.name}</span>
                </label>
              );
            })}
          </fieldset>
          <div className="modal-actions">
            <button type="button" className="button primary" onClick={closeModules}>
              {t.done}
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
