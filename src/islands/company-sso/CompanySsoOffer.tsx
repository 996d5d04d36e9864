import { useEffect, useState } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { companySsoApi } from '../../api/company-sso';
import type { ApiResult } from '../../api/result';

export interface CompanySsoOfferProps {
  email: string;
  lang: Lang;
  messages: Pick<Messages, 'errors'> & { companySso?: Messages['companySso'] };
}

/**
 * /login's "Continue with <company>" (issue 43), loaded only once an e-mail address is typed: asks the gateway
 * whether the address's domain is proved and connected by a company (the answer depends on the domain alone), and
 * offers that company's sign-in. An SSO-only domain says so, since the password and code will be refused.
 */
export default function CompanySsoOffer({ email, lang, messages }: CompanySsoOfferProps) {
  const m = messages.companySso!;
  const [company, setCompany] = useState<{ name: string; ssoOnly: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Extract<ApiResult<unknown>, { ok: false }> | null>(null);
  useEffect(() => {
    let live = true;
    // Only a whole address is asked about (the island loads this part at the first "@").
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email.trim())) return setCompany(null);
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
    // The provider's page, where the browser goes on (the flow's secret is in the HttpOnly cookie the edge set).
    const answer = await companySsoApi.start(email.trim());
    if (answer.ok) return location.assign(answer.data.authorizeUrl);
    setBusy(false);
    setProblem(answer);
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
