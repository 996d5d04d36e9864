import { useEffect, useState } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { CompanyListItem } from '../../schemas/company-list';
import { verificationStatusFromDb } from '../../schemas/company-status';
import { Steps } from './Steps';

interface EnterpriseChoiceProps {
  messages: Pick<Messages, 'onboarding' | 'statuses'>;
}

/**
 * /enterprise_adm_and_staff: create a company as its administrator, or join one as staff. A person who already
 * administers a company sees it first, with its verification and the way to it (issue 33).
 */
export default function EnterpriseChoice({ messages }: EnterpriseChoiceProps) {
  const m = messages.onboarding;
  const loginType = new URLSearchParams(location.search).get('loginType');
  const query = loginType === '1' || loginType === '2' ? `?loginType=${loginType}` : '';
  const [administered, setAdministered] = useState<CompanyListItem[]>([]);
  useEffect(() => {
    void import('../../api/account').then(async ({ accountApi }) => {
      const list = await accountApi.companyList();
      if (list.ok) setAdministered(list.data.filter((company) => company.role === 'administrator'));
    });
  }, []);
  const statusWord = (status: string) => {
    const key = verificationStatusFromDb(status);
    return (messages.statuses as Record<string, string>)[key] ?? key;
  };
  return (
    <div className="onboarding">
      <Steps current={1} labels={m.steps} />
      {administered.length > 0 && (
        <div className="notice standing" role="status">
          {administered.map((company) => (
            <p key={company.companyId}>
              {format(m.choose.administering, { company: company.companyNameCn && document.documentElement.lang.startsWith('zh') ? company.companyNameCn : company.companyNameEn, status: statusWord(company.status) })}
            </p>
          ))}
          <a className="button primary" href="/account">{m.choose.goToCompanies}</a>
        </div>
      )}
      <h2 className="section-title" id="identity-question">{m.choose.question}</h2>
      <ul className="identity-choices" aria-labelledby="identity-question">
        <li>
          <a className="identity-card" href={`/create_account${query}`}>
            <svg className="identity-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 21V7l8-4 8 4v14M9 21v-6h6v6M8 10h2M14 10h2" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" /></svg>
            <span className="identity-title">{m.choose.admin}</span>
            <span className="identity-text">{m.choose.adminText}</span>
          </a>
        </li>
        <li>
          <a className="identity-card" href={`/join${query}`}>
            <svg className="identity-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M19 8v6M22 11h-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" /></svg>
            <span className="identity-title">{m.choose.staff}</span>
            <span className="identity-text">{m.choose.staffText}</span>
          </a>
        </li>
      </ul>
    </div>
  );
}
