import * as ERR from '../../schemas/error-names';
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import type { Messages } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { problemText } from '../../i18n/problem';
import { $accounts, actFor, chooseCompany, isEnterable, loadAccounts, markMain, signOut } from '../../stores/account';
import { CompanyStanding } from './CompanyStanding';
import { companyTypeLabel } from './labels';
import type { ClosingWords } from '../shared/ClosingBanner';
import { ClosingBannerSlot } from '../shared/ClosingBannerSlot';

import type { ActingWords } from './ActingChoices';

const ActingChoices = lazy(() => import('./ActingChoices'));
const ReviewReason = lazy(() => import('./ReviewReason'));

/** Statuses the platform decided with a reason the person should read. */
const REASONED_STATUSES = ['additionalInformationRequired', 'verificationFailed', 'blocked', 'expired'];

interface AccountChoiceProps {
  lang: Lang;
  messages: Pick<Messages, 'account' | 'errors' | 'companyTypes' | 'statuses' | 'common' | 'twoStep'> & {
    actingWords: ActingWords;
  };
  /** A closure under way: its banner's words. */
  closingWords: ClosingWords;
}

/** /account: choose the company to work in, mark a main enterprise, or sign out. */
export default function AccountChoice({ lang, messages, closingWords }: AccountChoiceProps) {
  const m = messages.account;
  const s = useStore($accounts);

  useEffect(() => {
    void loadAccounts();
    // Back on this tab (an approval or a verification may have come meanwhile): the cards say how things stand now.
    const refresh = () => document.visibilityState === 'visible' && void loadAccounts();
    document.addEventListener('visibilitychange', refresh);
    return () => document.removeEventListener('visibilitychange', refresh);
  }, [messages]);

  if (s.phase === 'loading') return <div className="spinner" role="status">{messages.common.loading}</div>;

  return (
    <div className="account-choice">
      <ClosingBannerSlot lang={lang} words={closingWords} />
      {s.notice && <p className="notice" role="status">{problemText(messages, s.notice)}</p>}
      {s.error && <p className="error form-error" role="alert">{problemText(messages, s.error)}</p>}
      {/* The company requires two-step verification of its members: the way to set it up. */}
      {s.error && 'code' in s.error && s.error.code === ERR.TWO_STEP_REQUIRED_BY_COMPANY && (
        <p>
          <a className="text-link" href="/user_center#security">{messages.twoStep.setUpLink}</a>
        </p>
      )}
      {s.companies.length === 0 ? (
        <div className="empty-state">
          <p>{m.empty}</p>
          <div className="form-actions">
            <a className="button secondary" href="/create_account">{m.createCompany}</a>
            <a className="button secondary" href="/join">{m.joinCompany}</a>
          </div>
        </div>
      ) : (
        <>
          <p className="hint">{m.mainHint}</p>
          <ul className="company-list" aria-label={m.listLabel}>
            {s.companies.map((company) => {
              const name = lang === 'zh' && company.companyNameCn ? company.companyNameCn : company.companyNameEn;
              const busy = s.busyId === company.companyId;
              return (
                <li key={company.companyId} className="company-card" data-main={company.isMain || undefined}>
                  <div className="company-head">
                    <h2 className="company-name">{name}</h2>
                    {company.isMain && <span className="badge main">{m.main}</span>}
                  </div>
                  <dl className="company-facts">
                    <div>
                      <dt>{m.type}</dt>
                      <dd>{companyTypeLabel(company.companyType, messages.companyTypes)}</dd>
                    </div>
                    <div>
                      <dt>{m.role}</dt>
                      <dd>{m.roles[company.role]}</dd>
                    </div>
                    <CompanyStanding lang={lang} company={company} messages={messages} />
                  </dl>
                  {company.memberStatus !== 'pending' && REASONED_STATUSES.includes(company.status) && company.review && (company.review.reason || company.review.note) && (
                    <p className="hint review-reason">
                      <Suspense fallback={null}>
                        <ReviewReason lang={lang} template={m.reviewReason} reason={company.review.reason} note={company.review.note} />
                      </Suspense>
                    </p>
                  )}
                  {company.role === 'administrator' && company.status === 'additionalInformationRequired' && (
                    <div className="company-actions">
                      <a className="button primary" href={`/fill_account?companyId=${encodeURIComponent(company.companyId)}`} aria-label={`${m.fixAndResubmit}: ${name}`}>
                        {m.fixAndResubmit}
                      </a>
                    </div>
                  )}
                  {/* The company's two-step rule keeps the person out: the action sets two-step up, in the user center's Security section. */}
                  {company.twoStepRequired && !isEnterable(company) && (
                    <div className="company-actions">
                      <a className="button primary" href="/user_center#security" aria-label={`${messages.twoStep.setUpLink}: ${name}`}>
                        {messages.twoStep.setUpLink}
                      </a>
                    </div>
                  )}
                  {isEnterable(company) && (
                  <div className="company-actions">
                    <button type="button" className="button primary" disabled={Boolean(s.busyId)} aria-label={`${m.enter}: ${name}`} onClick={() => void chooseCompany(company.companyId)}>
                      {busy ? m.entering : m.enter}
                    </button>
                    {!company.isMain && (
                      <button type="button" className="button secondary" disabled={Boolean(s.busyId)} aria-label={`${m.setMain}: ${name}`} onClick={() => void markMain(company.companyId)}>
                        {m.setMain}
                      </button>
                    )}
                  </div>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      {s.actingCount > 0 && (
        <Suspense fallback={null}>
          <ActingChoices lang={lang} words={messages.actingWords} busy={Boolean(s.busyId)} onActFor={(grantId) => void actFor(grantId)} />
        </Suspense>
      )}
      <nav className="links">
        <a href="/user_center">{m.userCenter}</a>
        <button type="button" className="text-button link-like" onClick={() => void signOut()}>
          {m.signOut}
        </button>
      </nav>
    </div>
  );
}
