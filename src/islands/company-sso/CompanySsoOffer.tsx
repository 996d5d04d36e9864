import { useEffect, useState } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { companySsoApi } from '../../api/company-sso';
import { goToCompany, type Failure } from '../../stores/company-sso';
import './company-sso-offer.css';

export interface CompanySsoOfferProps {
  email: string;
  lang: Lang;
  messages: Pick<Messages, 'companySso' | 'errors'>;
}

/**
 * /login's "Continue with <company>" (issue 43), loaded only once an e-mail address is typed: asks the gateway
 * whether the address's domain is proved and connected by a company (the answer depends on the domain alone), and
 * offers that company's sign-in. An SSO-only domain says so, since the password and code will be refused.
 */
export default function CompanySsoOffer({ email, lang, messages }: CompanySsoOfferProps) {
  const m = messages.companySso;
  const [company, setCompany] = useState<{ name: string; ssoOnly: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Failure | null>(null);
  useEffect(() => {
    let live = true;
    // Asked once typing pauses, not on every key.
    const timer = setTimeout(() => {
      void companySsoApi.lookup(email.trim()).then((answer) => {
        if (!live) return;
        const found = answer.ok ? answer.data.company : null;
        setCompany(found ? { name: (lang === 'zh' && found.nameCn) || found.nameEn, ssoOnly: answer.ok && answer.data.ssoOnly } : null);
      });
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [email, lang]);
  if (!company) return null;
  const go = async () => {
    setBusy(true);
    setProblem(null);
    const failure = await goToCompany(email.trim());
    if (failure) {
      setBusy(false);
      setProblem(failure);
    }
  };
  return (
    <div className="company-sso-offer">
      {company.ssoOnly && <p className="hint">{format(m.ssoOnlyHint, { company: company.name })}</p>}
      <button type="button" className="button primary" disabled={busy} onClick={() => void go()}>
        {busy ? m.opening : format(m.continueWith, { company: company.name })}
      </button>
      {problem && (
        <p className="error" role="alert">
          {problemText(messages, problem)}
        </p>
      )}
    </div>
  );
}
