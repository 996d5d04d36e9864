import { useState } from 'react';
import type { Messages } from '../../i18n';
import { destinations } from '../../lib/login-route';
import { SESSION_KEYS } from '../../stores/browser';

/** The applicant's registry check (issue 42), said once on this page and then forgotten. */
function takeRegistryOutcome(): 'match' | 'review' | 'later' | null {
  try {
    const outcome = sessionStorage.getItem(SESSION_KEYS.registryOutcome);
    sessionStorage.removeItem(SESSION_KEYS.registryOutcome);
    return outcome === 'match' || outcome === 'review' || outcome === 'later' ? outcome : null;
  } catch {
    return null;
  }
}

interface CompletionProps {
  messages: Pick<Messages, 'completion'>;
}

/**
 * /completion_of_application?userType=&loginType=&ifJumpToSaas=. Login case 4 (an administrator
 * awaiting verification) carries ifJumpToSaas; case 5 (staff awaiting approval) does not, so its presence
 * tells the two apart. ifJumpToSaas=true means the company is verified and the SaaS can be opened.
 */
export default function Completion({ messages }: CompletionProps) {
  const m = messages.completion;
  const query = new URLSearchParams(location.search);
  const jump = query.get('ifJumpToSaas');
  const kind = jump === null ? 'staff' : 'admin';
  const saas = jump === 'true';
  const title = kind === 'admin' ? m.adminTitle : m.staffTitle;
  const text = kind === 'admin' ? (saas ? m.adminSaasText : m.adminText) : m.staffText;
  const [registry] = useState(takeRegistryOutcome);
  return (
    <div className="completion" data-kind={kind}>
      <svg className="completion-icon" viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="currentColor" opacity=".12" />
        {saas ? (
          <path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
        ) : (
          <g fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
            <circle cx="24" cy="24" r="13" />
            <path d="M24 17v8l5 3" />
          </g>
        )}
      </svg>
      <h2 className="section-title">{title}</h2>
      <p className="completion-text">{text}</p>
      {kind === 'admin' && registry && (
        <p className="completion-text completion-registry" data-outcome={registry}>
          {m.registry[registry]}
        </p>
      )}
      <div className="form-actions stacked">
        {saas && (
          <a className="button primary" href={destinations.webApp}>
            {m.goToSaas}
          </a>
        )}
        <a className={saas ? 'button secondary' : 'button primary'} href="/user_center">
          {m.userCenter}
        </a>
        {kind === 'admin' && !saas && (
          <a className="text-link" href="/fill_account">
            {m.fillAccount}
          </a>
        )}
      </div>
    </div>
  );
}
