import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { opsSupportApi } from '../../../api/support-view';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { format } from '../../../i18n/format';
import { problemOf, problemText, type Problem } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import type { SupportConsole } from '../../../schemas/support-view';
import { $operator, loadOperator } from '../../../stores/ops-session';
import { TextField } from '../../../ui/TextField';

interface OpsSupportProps {
  lang: Lang;
  messages: Pick<Messages, 'opsSupport' | 'errors'>;
}

const SIX_DIGITS = /^\d{6}$/;

/**
 * Support "view as" for operators (issue 44): start a view with the person's code (or an approved request), a reason
 * and a code of the operator's app; the person's session is then this browser's, opened in a new tab. The live views
 * with "Allow changes" and "End", and the requests without a code, which an administrator other than the asker
 * approves (the gateway decides who may: support/service.ts).
 */
export default function OpsSupport({ lang, messages }: OpsSupportProps) {
  const m = messages.opsSupport;
  const operator = useStore($operator);
  const [list, setList] = useState<SupportConsole | null>(null);
  const [form, setForm] = useState({ userId: '', code: '', reason: '', proof: '', approvalId: '' });
  const [errors, setErrors] = useState<Partial<Record<'userId' | 'code' | 'reason' | 'proof', string>>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [started, setStarted] = useState<{ until: number } | null>(null);
  const [busy, setBusy] = useState(false);
  // "Allow changes" asks its reason in a form under the view (no window.prompt): the view's id, the reason, its error.
  const [allowing, setAllowing] = useState<{ id: string; reason: string; error?: string } | null>(null);
  const allowOpener = useRef<HTMLButtonElement | null>(null);

  const time = (at: number) => new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Asia/Shanghai' }).format(at);
  const refresh = async () => {
    const answer = await opsSupportApi.list();
    if (answer.ok) setList(answer.data);
    else setProblem(problemOf(answer));
  };

  useEffect(() => {
    void loadOperator();
    const person = new URLSearchParams(location.search).get('person');
    if (person) setForm((f) => ({ ...f, userId: person }));
    void refresh();
  }, []);

  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  async function run<T>(call: () => Promise<{ ok: true; data: T } | { ok: false; code: string; message: string }>, done: (data: T) => void) {
    setBusy(true);
    setProblem(null);
    const answer = await call();
    setBusy(false);
    if (answer.ok) done(answer.data);
    else setProblem(problemOf(answer));
    await refresh();
  }

  function start(event: FormEvent) {
    event.preventDefault();
    const userId = form.userId.trim();
    const reason = form.reason.trim();
    const found = {
      userId: userId ? undefined : m.invalidPerson,
      code: form.approvalId || SIX_DIGITS.test(form.code.trim()) ? undefined : m.invalidCode,
      reason: reason.length >= 4 && reason.length <= 500 ? undefined : m.invalidReason,
      proof: SIX_DIGITS.test(form.proof.trim()) ? undefined : m.invalidProof,
    };
    setErrors(found);
    const first = (Object.keys(found) as (keyof typeof found)[]).find((key) => found[key]);
    if (first) {
      document.getElementById(`support-${first}`)?.focus();
      return;
    }
    const body = form.approvalId ? { userId, approvalId: form.approvalId, reason, proof: form.proof.trim() } : { userId, code: form.code.trim(), reason, proof: form.proof.trim() };
    void run(
      () => opsSupportApi.start(body),
      (data) => {
        setStarted({ until: data.view.until });
        setForm((f) => ({ ...f, code: '', proof: '', approvalId: '' }));
      },
    );
  }

  function requestApproval() {
    const userId = form.userId.trim();
    const reason = form.reason.trim();
    if (!userId || reason.length < 4) {
      setErrors({ userId: userId ? undefined : m.invalidPerson, reason: reason.length >= 4 ? undefined : m.invalidReason });
      return;
    }
    void run(() => opsSupportApi.request(userId, reason), () => setNotice(m.requested));
  }

  useEffect(() => {
    if (allowing && !allowing.reason && !allowing.error) document.getElementById(`allow-reason-${allowing.id}`)?.focus();
  }, [allowing?.id]);

  function closeAllow() {
    setAllowing(null);
    allowOpener.current?.focus();
  }

  function allowWrites(event: FormEvent) {
    event.preventDefault();
    if (!allowing) return;
    const reason = allowing.reason.trim();
    if (reason.length < 4 || reason.length > 500) {
      setAllowing({ ...allowing, error: m.invalidReason });
      document.getElementById(`allow-reason-${allowing.id}`)?.focus();
      return;
    }
    void run(() => opsSupportApi.allowWrites(allowing.id, reason), () => setAllowing(null));
  }

  const escapeCloses = (event: KeyboardEvent) => {
    if (event.key === 'Escape') closeAllow();
  };

  const isAdmin = operator?.role === 'admin';
  return (
    <div className="ops-support">
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{notice}</p>}
      </div>
      {problem && (
        <p className="error form-error" role="alert">
          {problemText(messages, problem)}
        </p>
      )}

      <section className="panel" aria-labelledby="support-start-title">
        <h2 id="support-start-title" className="section-title">{m.startTitle}</h2>
        <p className="hint">{m.startLead}</p>
        <form noValidate onSubmit={start}>
          <TextField id="support-userId" label={m.person} hint={m.personHint} value={form.userId} onChange={set('userId')} error={errors.userId} autoComplete="off" required />
          <TextField
            id="support-code"
            label={m.code}
            hint={form.approvalId ? undefined : m.codeHint}
            value={form.code}
            onChange={set('code')}
            error={errors.code}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            disabled={Boolean(form.approvalId)}
          />
          <TextField id="support-reason" label={m.reason} hint={m.reasonHint} value={form.reason} onChange={set('reason')} error={errors.reason} maxLength={500} required />
          <TextField id="support-proof" label={m.proof} hint={m.proofHint} value={form.proof} onChange={set('proof')} error={errors.proof} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={busy}>
              {m.start}
            </button>
            <button type="button" className="button secondary" disabled={busy} onClick={requestApproval}>
              {m.request}
            </button>
          </div>
        </form>
        {started && (
          <div className="notice" role="status">
            <p>{format(m.started, { time: time(started.until) })}</p>
            <a className="button primary" href="/user_center" target="_blank" rel="noopener">
              {m.open}
            </a>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="support-views-title">
        <h2 id="support-views-title" className="section-title">{m.viewsTitle}</h2>
        {list && list.views.length === 0 && <p className="hint">{m.noViews}</p>}
        <ul className="support-list">
          {list?.views.map((view) => (
            <li key={view.id}>
              <p>
                {format(m.viewFacts, { person: view.person, operator: view.operator, time: time(view.until) })}{' '}
                <span className="badge" data-tone={view.writable ? 'warn' : 'good'}>{view.writable ? m.writable : m.readOnly}</span>
              </p>
              {view.reason && <p className="hint">{view.reason}</p>}
              <div className="form-actions">
                {isAdmin && !view.writable && view.operatorId !== operator?.id && allowing?.id !== view.id && (
                  <button
                    type="button"
                    className="button secondary small"
                    disabled={busy}
                    aria-label={format(m.allowWritesLabel, { operator: view.operator, person: view.person })}
                    onClick={(event) => {
                      allowOpener.current = event.currentTarget;
                      setAllowing({ id: view.id, reason: '' });
                    }}
                  >
                    {m.allowWrites}
                  </button>
                )}
                {(isAdmin || view.operatorId === operator?.id) && (
                  <button type="button" className="button secondary small" disabled={busy} aria-label={format(m.endLabel, { person: view.person })} onClick={() => void run(() => opsSupportApi.end(view.id), () => undefined)}>
                    {m.end}
                  </button>
                )}
              </div>
              {allowing?.id === view.id && (
                <form className="allow-writes" noValidate onSubmit={allowWrites} onKeyDown={escapeCloses} aria-label={format(m.allowWritesLabel, { operator: view.operator, person: view.person })}>
                  <TextField
                    id={`allow-reason-${view.id}`}
                    label={m.allowReason}
                    hint={m.allowReasonHint}
                    value={allowing.reason}
                    onChange={(reason) => setAllowing({ id: view.id, reason })}
                    error={allowing.error}
                    maxLength={500}
                    required
                  />
                  <div className="form-actions">
                    <button type="submit" className="button primary small" disabled={busy}>
                      {m.allowWrites}
                    </button>
                    <button type="button" className="button secondary small" onClick={closeAllow}>
                      {m.cancel}
                    </button>
                  </div>
                </form>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section className="panel" aria-labelledby="support-requests-title">
        <h2 id="support-requests-title" className="section-title">{m.approvalsTitle}</h2>
        <p className="hint">{m.requestLead}</p>
        {list && list.approvals.length === 0 && <p className="hint">{m.noApprovals}</p>}
        <ul className="support-list">
          {list?.approvals.map((approval) => (
            <li key={approval.id}>
              <p>{format(m.approvalFacts, { person: approval.person, operator: approval.requester, reason: approval.reason })}</p>
              <div className="form-actions">
                {approval.approved && <span className="badge" data-tone="good">{m.approved}</span>}
                {isAdmin && !approval.approved && approval.requestedBy !== operator?.id && (
                  <button type="button" className="button secondary small" disabled={busy} aria-label={format(m.approveLabel, { person: approval.person, operator: approval.requester })} onClick={() => void run(() => opsSupportApi.approve(approval.id), () => undefined)}>
                    {m.approve}
                  </button>
                )}
                {approval.approved && approval.requestedBy === operator?.id && (
                  <button type="button" className="button secondary small" onClick={() => setForm((f) => ({ ...f, userId: approval.userId, approvalId: approval.id, code: '' }))}>
                    {m.useApproval}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
