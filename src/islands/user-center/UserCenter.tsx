import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import type { Messages } from '../../i18n';
import type { AllWords, FirstWords } from './words';
import { problemText } from '../../i18n/problem';
import { joinList, type Lang } from '../../lib/lang';
import {
  $profileDraft,
  $userCenter,
  cancelDecline,
  confirmDecline,
  copyInvitationCode,
  loadUserCenter,
  openProfileEditor,
  regenerateInvitationCode,
  signOut,
  uploadPhoto,
} from '../../stores/user-center';
import { FILLABLE_STATUSES, verificationStatusFromDb } from '../../schemas/company-status';
import { Avatar } from '../../ui/Avatar';
import { EmailAddress } from '../../ui/EmailAddress';
import { formatDay } from '../../ui/format-day';
import { WhenVisible } from '../../ui/WhenVisible';
import { StepUpSlot } from '../shared/StepUpSlot';
// The share-link part is in the first screen: with the island, not a lazy chunk the first paint would wait for.
import { ShareSignIn } from './ShareSignIn';
import { ClosingBannerSlot } from '../shared/ClosingBannerSlot';

// The profile editor (with its country list and date picker) loads when the person opens it.
// Every part below the profile and the companies loads on demand (issue 31): the page paints those from the
// island's first load, and the lower sections' parts (members, security, data rights) load with their words when
// the section comes near (WhenVisible), through ./LaterParts.tsx, each part's code in its own chunk.
const SecurityParts = lazy(() => import('./LaterParts').then((m) => ({ default: m.SecurityParts })));
const CompanyParts = lazy(() => import('./LaterParts').then((m) => ({ default: m.CompanyParts })));
const YourDataPart = lazy(() => import('./LaterParts').then((m) => ({ default: m.YourDataPart })));
// The question before declining a member opens from the members part.
const ConfirmModal = lazy(() => import('../../ui/ConfirmModal').then((m) => ({ default: m.ConfirmModal })));
const ProfileEditor = lazy(() => import('./ProfileEditor').then((m) => ({ default: m.ProfileEditor })));
import { CompanyStanding } from '../account-choice/CompanyStanding';
import { companyTypeLabel } from '../account-choice/labels';
import { format } from '../../i18n/format';

// Only while the session acts for another company (issue 41) or is a support "view as" (issue 44): the code loads then.
const SessionBanners = lazy(() => import('./SessionBanners').then((module) => ({ default: module.SessionBanners })));


/** The places inside "Security" and "Your data" an address may name (the new-device notice, WeChat, OpenID). */
const SECURITY_ANCHORS = ['security', 'passkeys-title', 'two-step-title', 'sessions-title', 'sign-in-history-title', 'connected-apps-title', 'linked-accounts', 'account-activity-title'];
const YOUR_DATA_ANCHORS = ['your-data', 'data-map-title', 'consents-title', 'tracking-title', 'copy-title', 'close-title'];

interface UserCenterProps {
  lang: Lang;
  /** The human check's words, for the SMS code to a new mobile number ("Your data"). */
  sliderLabels: Messages['signIn']['slider'] & { networkError: string };
  /** The first screen's words; the lower sections' come from the page's JSON (./words.ts). */
  messages: FirstWords;
}

/** /user_center: profile, avatar, companies and roles; an administrator's members and invitation code. */
export default function UserCenter({ lang, messages, sliderLabels }: UserCenterProps) {
  const m = messages.userCenter;
  const s = useStore($userCenter);
  const editing = useStore($profileDraft).open;
  const editButton = useRef<HTMLButtonElement>(null);
  // The notices said here are the first screen's and the members' (their words are in the props).
  const said = messages as Partial<AllWords>;

  useEffect(() => {
    void loadUserCenter();
  }, []);

  // Until the two first reads answer, the page shows its frame: the same sections, headings and labels at their
  // places, the values not yet known (issue 31). The page's HTML is this first render (user_center.astro renders
  // the island at build time), so the frame paints before React, and React then fills it in place.
  const loading = s.phase === 'loading';
  const me = s.me;
  const shown = (value: string | null | undefined) => (value && value.trim() ? value : m.empty);
  const name = me ? me.realName || me.loginName : '';
  const phone = me?.registerMobile ? `${me.userPhoneCode ?? ''} ${me.registerMobile}`.trim() : null;
  // An address breaks after its "@" on a narrow screen, not inside a word.
  const address = (value: string | null | undefined) => (value && value.trim() ? <EmailAddress value={value} /> : m.empty);
  // An address row (the third value) keeps room for two lines from the frame on (forms.css `.facts .address`).
  const companyName = (id: string) => {
    const company = s.companies.find((c) => c.companyId === id);
    return company ? (lang === 'zh' && company.companyNameCn ? company.companyNameCn : company.companyNameEn) : id;
  };
  // A member the company's two-step rule keeps out: their modules wait for two-step, not for the administrator.
  const keptOut = s.companies.find((company) => company.twoStepRequired);
  const profile: [string, ReactNode, boolean?][] = [
    [m.realName, shown(me?.realName)],
    [m.loginName, address(me?.loginName), true],
    [m.phone, shown(phone)],
    [m.email, address(me?.businessEmails), true],
    [m.country, shown(me?.countryName)],
    [m.birthday, shown(me?.birthday && formatDay(me.birthday, lang))],
    [m.sex, me?.sex === 'male' || me?.sex === 'female' ? m.sexes[me.sex] : m.empty],
    [m.hireDate, shown(me?.hireDate && formatDay(me.hireDate, lang))],
    // Administrators see every module of the company in use; staff the ones granted to them. Last: forms.css gives
    // the last fact a row of its own with room for two lines (`.facts > div:last-child`).
    [
      messages.members.yourModules,
      me?.authoriseList.length
        ? joinList(lang, me.authoriseList.map((module) => module.name))
        : keptOut
          ? (
              <>
                {format(messages.members.noModulesUntilTwoStep, { company: companyName(keptOut.companyId) })}{' '}
                <a href="#security">{messages.members.setUpTwoStep}</a>
              </>
            )
        : s.companies.some((company) => company.role === 'administrator')
          ? messages.members.noModulesUntilVerified
          : messages.members.noModules,
    ],
  ];

  return (
    <div className="user-center">
      <div className="live-region" role="status" aria-live="polite">
        {s.notice && <p className="notice">{problemText(said, s.notice)}</p>}
      </div>
      {s.error && <p className="error form-error" role="alert">{problemText(said, s.error)}</p>}

      <ClosingBannerSlot lang={lang} words={messages.dataRights} />

      {(me?.supportView || me?.actingFor) && (
        <Suspense fallback={null}>
          <SessionBanners lang={lang} me={me} words={m} />
        </Suspense>
      )}

      <section className="panel" aria-labelledby="profile-title" aria-busy={loading || undefined}>
        {/* Said once while the values are read; it takes no room, so nothing moves when it goes. */}
        {loading && <p className="visually-hidden" role="status">{messages.common.loading}</p>}
        <div className="profile-head">
          {/* Its place and size from the start (ui/Avatar.tsx), coloured once the person is known. */}
          {me ? <Avatar id={me.userId} name={name} photo={me.photo} /> : <span className="avatar unknown" aria-hidden="true" />}
          <div>
            <h2 id="profile-title" className="section-title">{name || m.profile}</h2>
            <p className="hint">{m.profile}</p>
            {/* JPEG or PNG, at most 6 MB: the upload's own rules; the gateway says which one failed. */}
            <label className="text-link photo-upload">
              {messages.members.photo}
              <input
                type="file"
                className="visually-hidden"
                accept="image/jpeg,image/png"
                disabled={!me}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void uploadPhoto(file);
                }}
              />
            </label>
          </div>
        </div>
        {editing ? (
          <Suspense fallback={<p className="hint">{messages.common.loading}</p>}>
            <ProfileEditor lang={lang} messages={messages} onClosed={() => setTimeout(() => editButton.current?.focus())} />
          </Suspense>
        ) : (
          <dl className="facts">
            {profile.map(([label, value, isAddress]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd className={isAddress ? 'address' : undefined} aria-hidden={loading || undefined}>{loading ? '…' : value}</dd>
              </div>
            ))}
          </dl>
        )}
        {/* While the editor is open its Save and Cancel are the only actions here. */}
        {!editing && (
          <div className="form-actions">
            <button ref={editButton} type="button" className="button primary" disabled={!me} onClick={openProfileEditor}>
              {m.editProfile}
            </button>
            <a className="button secondary" href="/change_password">{m.changePassword}</a>
            <a className="button secondary" href="/account">{m.chooseAccount}</a>
            <button type="button" className="button secondary" disabled={loading} onClick={() => void signOut()}>
              {m.signOut}
            </button>
          </div>
        )}
      </section>

      {/* Its button, like the profile's, works once the island runs: disabled in the page's frame until then. */}
      <ShareSignIn lang={lang} messages={messages} waiting={loading} />

      <section className="panel" aria-labelledby="companies-title">
        <h2 id="companies-title" className="section-title">{m.companies}</h2>
        {loading ? (
          <p className="hint" aria-busy="true">{messages.common.loading}</p>
        ) : s.companies.length === 0 ? (
          <p className="hint">{m.noCompanies}</p>
        ) : (
          <ul className="company-list compact">
            {s.companies.map((company) => (
              <li key={company.companyId} className="company-card">
                <div className="company-head">
                  <h3 className="company-name">{companyName(company.companyId)}</h3>
                  {company.isMain && <span className="badge main">{messages.account.main}</span>}
                </div>
                <dl className="company-facts">
                  <div>
                    <dt>{messages.account.type}</dt>
                    <dd>{companyTypeLabel(company.companyType, messages.companyTypes)}</dd>
                  </div>
                  <div>
                    <dt>{messages.account.role}</dt>
                    <dd>{messages.account.roles[company.role]}</dd>
                  </div>
                  <CompanyStanding lang={lang} company={company} messages={messages} />
                </dl>
                {company.role === 'administrator' && (FILLABLE_STATUSES as readonly string[]).includes(verificationStatusFromDb(company.status)) && (
                  <a className="text-link fill-link" href={`/fill_account?${new URLSearchParams({ companyId: company.companyId })}`}>
                    {m.fillAccount}
                  </a>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      {/* Each administered company's part: its heading at once, and a placeholder of its usual height while its
          members are read (the same section and heading then, so nothing is replaced under a reader). */}
      {s.companies.filter((c) => s.administeredLoading.includes(c.companyId) || s.administered.some((a) => a.companyId === c.companyId)).map(({ companyId }) => {
        const company = s.administered.find((a) => a.companyId === companyId);
        const title = format(m.members, { company: companyName(companyId) });
        const titleId = `members-${companyId}`;
        if (!company) {
          return (
            <section key={companyId} className="panel" aria-labelledby={titleId} aria-busy="true">
              <h2 id={titleId} className="section-title">{title}</h2>
              <p className="hint" style={{ minHeight: '18rem' }}>{messages.common.loading}</p>
            </section>
          );
        }
        const pending = company.members.filter((member) => member.role === 'staff' && member.status === 'pending').length;
        return (
          <section key={companyId} className="panel" aria-labelledby={titleId}>
            <h2 id={titleId} className="section-title">{title}</h2>
            <div className="invitation">
              <span className="invitation-label" id={`${titleId}-code-label`}>{m.invitationCode}</span>
              <code className="invitation-code" aria-labelledby={`${titleId}-code-label`} data-testid="invitation-code" data-empty={!company.invitationCode || undefined}>
                {company.invitationCode ?? m.noInvitationCode}
              </code>
              <div className="invitation-actions">
                <button type="button" className="button secondary" disabled={!company.invitationCode} onClick={() => company.invitationCode && void copyInvitationCode(company.invitationCode)}>
                  {m.copy}
                </button>
                <button type="button" className="button secondary" disabled={s.busyId === company.companyId} onClick={() => void regenerateInvitationCode(company.companyId)}>
                  {m.regenerate}
                </button>
              </div>
              <p className="hint">
                {/* The join page with the code filled in: a link the administrator can open or copy (issue 33). */}
                {m.invitationHint.split('{link}')[0]}
                <a href={company.invitationCode ? `/join?${new URLSearchParams({ code: company.invitationCode })}` : '/join'}>
                  {`${location.origin}/join${company.invitationCode ? `?code=${company.invitationCode}` : ''}`}
                </a>
                {m.invitationHint.split('{link}')[1]}
              </p>
            </div>
            {/* The company's two-step rule, its members and API clients load when this part comes near (issue 31). */}
            {pending > 0 && <p className="pending-count">{format(m.pendingCount, { n: pending })}</p>}
            <WhenVisible anchors={[titleId]} minHeight="12rem" loading={messages.common.loading}>
              <CompanyParts
                lang={lang}
                company={company}
                companyName={companyName(company.companyId)}
                requireTwoStep={s.companies.find((c) => c.companyId === company.companyId)?.requireTwoStep ?? false}
                messages={messages}
              />
            </WhenVisible>
          </section>
        );
      })}

      {/* Account security; the new-device notice links here (/user_center#security). Its parts load when it comes
          near, when the address names it or one of them, or with the first Tab key (ui/WhenVisible.tsx). */}
      <section className="security-section" aria-labelledby="security">
        <h2 id="security" className="section-title">{messages.security.title}</h2>
        <WhenVisible anchors={SECURITY_ANCHORS} minHeight="24rem" loading={messages.common.loading}>
          <SecurityParts lang={lang} messages={messages} closed={!!me?.supportView} />
        </WhenVisible>
      </section>

      {/* The person's rights over their data (/user_center#your-data). */}
      <WhenVisible anchors={YOUR_DATA_ANCHORS} minHeight="20rem" loading={messages.common.loading}>
        <YourDataPart lang={lang} messages={messages} sliderLabels={sliderLabels} closed={!!me?.supportView} />
      </WhenVisible>
      <StepUpSlot messages={messages} />

      {s.declining && (
        <Suspense fallback={null}>
        <ConfirmModal
          title={m.declineTitle}
          text={format(m.declineText, { name: s.declining.name, company: s.declining.company })}
          cancelLabel={m.cancel}
          confirmLabel={m.declineConfirm}
          onCancel={cancelDecline}
          onConfirm={() => void confirmDecline()}
        />
        </Suspense>
      )}
    </div>
  );
}
