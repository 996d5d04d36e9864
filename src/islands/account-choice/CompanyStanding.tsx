import type { Messages } from '../../i18n';
import { joinSentences, type Lang } from '../../lib/lang';
import type { CompanyListItem } from '../../schemas/company-list';
import { verificationStatusFromDb } from '../../schemas/company-status';
import { statusLabel, statusTone } from './labels';

interface CompanyStandingProps {
  lang: Lang;
  company: Pick<CompanyListItem, 'role' | 'status' | 'memberStatus' | 'canEnter' | 'twoStepRequired'>;
  messages: Pick<Messages, 'account' | 'statuses'>;
}

/** Statuses that wait on the administrator's application: the administrator is told to complete and send it. */
const APPLICATION_OWED: string[] = ['notVerified', 'verificationFailed', 'additionalInformationRequired'];
/** Statuses no waiting ends by itself: the company was blocked, expired or could not be linked. */
const STOPPED: string[] = ['blocked', 'expired', 'failToBind'];

/**
 * Where a person stands with one company, as the rows of its card's fact list and a line under it: a staff
 * member's membership (the administrator's answer) and the company's own verification (the platform's) are
 * two facts with words of their own, then what the verification means and what happens next.
 */
export function CompanyStanding({ lang, company, messages }: CompanyStandingProps) {
  const m = messages.account;
  const staff = company.role === 'staff';
  const pending = company.memberStatus === 'pending';
  const verification = verificationStatusFromDb(company.status);
  const meaning = verification in m.verificationMeaning ? m.verificationMeaning[verification as keyof typeof m.verificationMeaning] : '';
  const next = pending
    ? m.awaitingApprovalHint
    : company.canEnter
      ? m.enterNow
      : company.twoStepRequired
        ? m.enterOnceTwoStep
        : company.role === 'administrator' && APPLICATION_OWED.includes(verification)
          ? m.enterOnceApplicationSent
          : STOPPED.includes(verification)
            ? m.enterOnceResolved
            : m.enterOnceVerified;
  return (
    <>
      {staff && (
        <div>
          <dt>{m.membership}</dt>
          <dd>
            <span className="badge" data-tone={pending ? 'waiting' : 'good'}>
              {pending ? m.awaitingApproval : m.membershipApproved}
            </span>
          </dd>
        </div>
      )}
      <div>
        <dt>{m.status}</dt>
        <dd>
          <span className="badge" data-tone={statusTone(company.status)}>
            {statusLabel(company.status, messages.statuses)}
          </span>
        </dd>
      </div>
      <div className="company-standing">
        <dt className="visually-hidden">{m.whatNext}</dt>
        <dd className="hint">{joinSentences(lang, [staff && !pending ? m.membershipApprovedHint : '', pending ? '' : meaning, next])}</dd>
      </div>
    </>
  );
}
