import { useEffect, useState } from 'react';
import { opsReviewApi } from '../../../api/ops-review';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { format } from '../../../i18n/format';
import { problemOf, problemText, type Problem } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import type { CompanyGrantsOpsAnswer } from '../../../schemas/grants';
import { FieldFrame } from '../../../ui/FieldFrame';
import { formatTime } from './format';

/**
 * The company's vessels, its grants with other companies and the vessel claims to settle (issue 41), with the one
 * action the platform has: suspend every grant of the company, with a reason, or restore them.
 */
export function CompanyGrantsOps({ companyId, lang, messages }: { companyId: string; lang: Lang; messages: Pick<Messages, 'opsReview' | 'errors'> }) {
  const t = messages.opsReview.grants;
  const [view, setView] = useState<CompanyGrantsOpsAnswer | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  async function load() {
    const answer = await opsReviewApi.grants(companyId);
    if (answer.ok) setView(answer.data);
    else setProblem(problemOf(answer));
  }
  useEffect(() => void load(), [companyId]);

  async function suspend(on: boolean) {
    if (busy) return;
    setBusy(true);
    const answer = await opsReviewApi.suspendGrants(companyId, on, on ? reason.trim() : '');
    setBusy(false);
    if (!answer.ok) return setProblem(problemOf(answer));
    setProblem(null);
    setNotice(t.done);
    setReason('');
    await load();
  }

  if (!view) return null;
  const name = (party: { nameEn: string; nameCn: string | null }) => (lang === 'zh' ? party.nameCn || party.nameEn : party.nameEn);
  const day = (at: number) => formatTime(lang, at).slice(0, 10);
  return (
    <section aria-labelledby="review-grants" className="ops-grants">
      <h2 id="review-grants">{t.title}</h2>
      <div role="status" aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {problem && <p className="error" role="alert">{problemText(messages, problem)}</p>}
      <h3>{t.vessels}</h3>
      {view.vessels.length === 0 ? <p className="hint">{t.noVessels}</p> : (
        <ul>
          {view.vessels.map((vessel) => (
            <li key={vessel.id}>{vessel.name} · IMO {vessel.imo} · {vessel.relation}{vessel.startsOn ? ` · ${vessel.startsOn} – ${vessel.endsOn}` : ''}</li>
          ))}
        </ul>
      )}
      {view.claims.length > 0 && (
        <>
          <h3>{t.claims}</h3>
          {view.claims.map((claim) => (
            <p key={claim.id} className="notice-banner">{format(t.claim, { imo: claim.imo, name: claim.name, relation: claim.relation, holder: claim.holder ?? '—' })}</p>
          ))}
        </>
      )}
      <h3>{t.grants}</h3>
      {view.grants.length === 0 ? <p className="hint">{t.noGrants}</p> : (
        <ul>
          {view.grants.map((grant) => (
            <li key={grant.id}>
              {format(t.grantLine, { principal: name(grant.principal), agent: name(grant.agent), status: grant.status, from: day(grant.startsAt), to: day(grant.endsAt - 1) })}
              {' · '}
              {[...grant.vessels, ...grant.ports].join(', ')}
            </li>
          ))}
        </ul>
      )}
      {view.suspended ? (
        <>
          <p className="notice-banner">{format(t.suspended, { when: formatTime(lang, view.suspended.at), reason: view.suspended.reason })}</p>
          <button type="button" className="button secondary" disabled={busy} onClick={() => void suspend(false)}>{t.restore}</button>
        </>
      ) : (
        <form noValidate onSubmit={(event) => { event.preventDefault(); void suspend(true); }}>
          <FieldFrame id="grants-suspend-reason" label={t.reasonLabel} required>
            {(aria) => <textarea {...aria} id="grants-suspend-reason" className="input" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />}
          </FieldFrame>
          <button type="submit" className="button secondary" disabled={busy || !reason.trim()}>{t.suspend}</button>
        </form>
      )}
    </section>
  );
}
