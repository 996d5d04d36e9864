import type { Messages } from '../../i18n';
import { Steps } from './Steps';

interface EnterpriseChoiceProps {
  messages: Pick<Messages, 'onboarding'>;
}

/** /enterprise_adm_and_staff: create a company as its administrator, or join one as staff. */
export default function EnterpriseChoice({ messages }: EnterpriseChoiceProps) {
  const m = messages.onboarding;
  const loginType = new URLSearchParams(location.search).get('loginType');
  const query = loginType === '1' || loginType === '2' ? `?loginType=${loginType}` : '';
  return (
    <div className="onboarding">
      <Steps current={1} labels={m.steps} />
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
