import * as ERR from '../../../schemas/error-names';
import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import { auditReasonText, REVIEW_REASON_TEXT, REVIEW_RULES, reviewReasonText, type ReviewAction, type ReviewDetailAnswer, type ReviewReason } from '../../../schemas/ops-review';
import {
  $review,
  cancelDecision,
  checkRegistryAgain,
  editDecision,
  loadReview,
  startDecision,
  submitDecision,
  type DecisionDraft,
} from '../../../stores/ops-review';
import { EmailAddress } from '../../../ui/EmailAddress';
import { FieldFrame } from '../../../ui/FieldFrame';
import { ScrollTable } from '../../../ui/ScrollTable';
import { companyTypeLabel, statusLabel, statusTone } from '../../account-choice/labels';
import { actionLabel } from '../audit/action-label';
import { formatTime } from './format';
import { CompanyGrantsOps } from './CompanyGrantsOps';
import { CompanyEditOps } from './CompanyEditOps';
import { format } from '../../../i18n/format';

/** Decision refusals that belong to one field: no reason (RV0003), no words for 'other' (RV0005). */
const FIELD_CODES: readonly string[] = [ERR.REVIEW_REASON_NOT_CHOSEN, ERR.REVIEW_REASON_TEXT_MISSING];
type FieldError = { code: string; text: string } | null;

type ReviewMessages = Pick<Messages, 'opsReview' | 'errors' | 'companyTypes' | 'statuses' | 'common'>;

interface CompanyReviewProps {
  lang: Lang;
  messages: ReviewMessages;
  /** The audit trail's words for each action, for the company's history. */
  actionNames: Messages['actionNames'];
}

/** /ops/company?companyId=: everything the administrator entered, the documents, members, history and the decisions. */
export default function CompanyReview({ lang, messages, actionNames }: CompanyReviewProps) {
  const m = messages.opsReview;
  const s = useStore($review);

  useEffect(() => {
    void loadReview(new URLSearchParams(location.search).get('companyId') ?? '');
  }, []);

  if (s.phase === 'loading') return <div className="spinner" role="status">{messages.common.loading}</div>;
  const back = (
    <p>
      <a className="text-link" href="/ops/companies">{m.back}</a>
    </p>
  );
  if (s.phase === 'missing' || !s.detail) {
    return (
      <div className="ops-review">
        {s.error ? <p className="error form-error" role="alert">{problemText(messages, s.error)}</p> : <p className="hint">{m.noCompany}</p>}
        {back}
      </div>
    );
  }
  const d = s.detail;
  // A missing reason or missing words are said at their field.
  const fieldError = s.error && 'code' in s.error && FIELD_CODES.includes(s.error.code) ? { code: s.error.code, text: problemText(messages, s.error) } : null;
  const reasonShown = d.review.reason || d.review.note;

  return (
    <div className="ops-review">
      {back}
      <div className="company-head">
        <h2 className="company-name">{d.companyNameEn}</h2>
        <span className="badge" data-tone={statusTone(d.status)} data-testid="review-status">
          {statusLabel(d.status, messages.statuses)}
        </span>
      </div>
      {reasonShown && (
        <p className="hint">
          {m.lastDecision}: {reviewReasonText(lang, d.review.reason, d.review.note)}
        </p>
      )}

      <Decisions detail={d} draft={s.draft} busy={s.busy} lang={lang} messages={messages} fieldError={fieldError} />
      {s.error && !fieldError && <p className="error form-error" role="alert">{problemText(messages, s.error)}</p>}
      {s.done && (
        <p className="notice" role="status">
          {format(m.decided, { status: statusLabel(s.done.status, messages.statuses) })} {s.done.notified ? m.notified : m.notNotified}
        </p>
      )}

      <section aria-labelledby="review-details">
        <h2 id="review-details">{m.details}</h2>
        <dl className="ops-facts">
          {(
            [
              [m.fields.nameEn, d.companyNameEn],
              [m.fields.nameCn, d.companyNameCn],
              [m.fields.type, companyTypeLabel(d.companyType, messages.companyTypes)],
              [m.fields.country, d.countryName && `${d.countryName} (${d.countryId})`],
              [m.fields.creditCode, d.socialCredit],
              // An overseas company's numbers (issue 42); their evidence is under the documents.
              ...(d.countryId !== 'CN'
                ? [
                    [m.fields.imoCompanyNumber, d.imoCompanyNumber],
                    [m.fields.nationalRegistryNumber, d.nationalRegistryNumber],
                  ]
                : []),
              [m.fields.contactName, d.contactName],
              [m.fields.contactPhone, d.contactPhone],
              [m.fields.contactEmail, d.contactEmail],
              [m.fields.port, d.portName && `${d.portName}${d.portCode ? `, ${d.portCode}` : ''}`],
              [m.fields.lang, m.langs[d.lang as Lang] ?? d.lang],
              [m.fields.created, formatTime(lang, d.createdAt)],
              [m.fields.updated, d.updatedAt ? formatTime(lang, d.updatedAt) : null],
            ] as [string, string | null][]
          ).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value || '—'}</dd>
            </div>
          ))}
        </dl>
      </section>

      <CompanyEditOps detail={d} messages={messages} onSaved={() => loadReview(d.companyId)} />

      <Registry detail={d} lang={lang} messages={messages} busy={s.registryBusy} error={s.registryError && problemText(messages, s.registryError)} />

      <section aria-labelledby="review-files">
        <h2 id="review-files">{m.files}</h2>
        {d.files.length === 0 ? (
          <p>{m.noFiles}</p>
        ) : (
          <ul className="ops-files">
            {d.files.map((file) => {
              const purpose = m.purposes[file.purpose as keyof typeof m.purposes] ?? file.purpose;
              return (
                <li key={file.id}>
                  <p>
                    <strong>{purpose}</strong>{' '}
                    <a className="text-link" href={file.url} target="_blank" rel="noopener" aria-label={format(m.openFile, { name: `${purpose} ${file.originName}` })}>
                      {file.originName}
                    </a>
                  </p>
                  {file.contentType.startsWith('image/') && <img src={file.url} alt={`${purpose}: ${file.originName}`} className="ops-file-image" loading="lazy" />}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <CompanyGrantsOps companyId={d.companyId} lang={lang} messages={messages} />

      <section aria-labelledby="review-members">
        <h2 id="review-members">{m.members}</h2>
        <ScrollTable
          label={m.membersTable}
          className="ops-table"
          columns={[m.memberColumns.name, m.memberColumns.role, m.memberColumns.status, m.memberColumns.phone, m.memberColumns.email, m.memberColumns.joined]}
        >
          {d.members.map((member) => (
            <tr key={member.userId}>
              <td>{member.name || '—'}</td>
              <td>{m.roles[member.role as keyof typeof m.roles] ?? member.role}</td>
              <td>{m.memberStatuses[member.status as keyof typeof m.memberStatuses] ?? member.status}</td>
              <td>{member.phone ?? '—'}</td>
              <td>{member.email ? <EmailAddress value={member.email} /> : '—'}</td>
              <td>{formatTime(lang, member.joinedAt)}</td>
            </tr>
          ))}
        </ScrollTable>
      </section>

      <section aria-labelledby="review-history">
        <h2 id="review-history">{m.history}</h2>
        {d.history.length === 0 ? (
          <p>{m.noHistory}</p>
        ) : (
          <ol className="ops-history">
            {d.history.map((entry) => (
              <li key={entry.id}>
                <time dateTime={new Date(entry.at).toISOString()}>{formatTime(lang, entry.at)}</time>{' '}
                <strong>{actionLabel({ actionNames }, entry.action)}</strong>{' '}
                {format(m.historyBy, { name: entry.actorName ?? m.system })}
                {entry.reason && <span className="hint"> — {auditReasonText(lang, entry.reason)}</span>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}


interface DecisionsProps {
  detail: ReviewDetailAnswer;
  draft: DecisionDraft | null;
  busy: boolean;
  lang: Lang;
  messages: ReviewMessages;
  fieldError: FieldError;
}

/** The decisions open from the company's status; one at a time is written out with its reason. */
function Decisions({ detail, draft, busy, lang, messages, fieldError }: DecisionsProps) {
  const m = messages.opsReview;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (draft) heading.current?.focus();
  }, [draft?.action]);

  return (
    <section aria-labelledby="review-decide" className="ops-decide">
      <h2 id="review-decide">{m.decide}</h2>
      {detail.actions.length === 0 ? (
        <p>{m.noActions}</p>
      ) : (
        !draft && (
          <div className="company-actions">
            {detail.actions.map((action) => (
              <button key={action} type="button" className={action === 'verify' ? 'button primary' : 'button secondary'} onClick={() => startDecision(action)}>
                {m.actions[action]}
              </button>
            ))}
          </div>
        )
      )}
      {draft && (
        <form
          className="ops-decision"
          noValidate
          aria-labelledby="decision-title"
          onSubmit={(event) => {
            event.preventDefault();
            void submitDecision(lang);
          }}
        >
          <h3 id="decision-title" tabIndex={-1} ref={heading}>
            {m.actions[draft.action]}
          </h3>
          <ReasonFields draft={draft} lang={lang} messages={messages} error={fieldError} />
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? m.deciding : format(m.confirm, { action: m.actions[draft.action] })}
            </button>
            <button type="button" className="button secondary" disabled={busy} onClick={cancelDecision}>
              {m.cancel}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function ReasonFields({ draft, lang, messages, error }: { draft: DecisionDraft; lang: Lang; messages: ReviewMessages; error: FieldError }) {
  const m = messages.opsReview;
  const reasons = REVIEW_RULES[draft.action as ReviewAction].reasons;
  const noteNeeded = draft.reason === 'other';
  return (
    <>
      {reasons.length > 0 && (
        <FieldFrame id="decision-reason" label={m.reason} error={error?.code === ERR.REVIEW_REASON_NOT_CHOSEN ? error.text : undefined}>
          {(aria) => (
            <select {...aria} id="decision-reason" className="select" required value={draft.reason} onChange={(event) => editDecision({ reason: event.target.value as ReviewReason })}>
              <option value="" disabled>
                {m.reasonPlaceholder}
              </option>
              {reasons.map((reason) => (
                <option key={reason} value={reason}>
                  {REVIEW_REASON_TEXT[reason][lang]}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
      )}
      <FieldFrame id="decision-note" label={noteNeeded ? m.note : m.noteOptional} hint={m.noteHint} error={error?.code === ERR.REVIEW_REASON_TEXT_MISSING ? error.text : undefined}>
        {(aria) => (
          <textarea {...aria} id="decision-note" className="input" rows={3} maxLength={1000} required={noteNeeded} value={draft.note} onChange={(event) => editDecision({ note: event.target.value })} />
        )}
      </FieldFrame>
    </>
  );
}

/**
 * The registry check beside the licence (issue 42): the latest verdict with its time, the open tasks of a status
 * change, and "Check again". Only mainland companies are checked.
 */
function Registry({ detail, lang, messages, busy, error }: { detail: ReviewDetailAnswer; lang: Lang; messages: ReviewMessages; busy: boolean; error: string | null }) {
  const r = messages.opsReview.registry;
  if (detail.countryId !== 'CN') return null;
  const latest = detail.registry.latest;
  const statusWord = (status: string | null) => (status ? (r.statuses[status as keyof typeof r.statuses] ?? status) : '');
  const verdict = !latest
    ? r.never
    : latest.verdict === 'differs'
      ? format(r.verdicts.differs, { fields: latest.differing.map((field) => r.fields[field]).join(lang === 'zh' ? '、' : ', ') })
      : latest.verdict === 'notOperating'
        ? format(r.verdicts.notOperating, { status: statusWord(latest.registryStatus) })
        : r.verdicts[latest.verdict];
  const tone = !latest || latest.verdict === 'notChecked' ? 'waiting' : latest.verdict === 'match' ? 'good' : 'bad';
  return (
    <section aria-labelledby="review-registry" className="ops-registry">
      <h2 id="review-registry">{r.title}</h2>
      <p>
        <span className="badge" data-tone={tone}>{verdict}</span>
        {latest && <span className="hint"> {format(r.checkedAt, { when: formatTime(lang, latest.checkedAt), cause: r.causes[latest.cause] })}</span>}
      </p>
      {detail.registry.tasks.map((task) => (
        <p key={task.id} className="notice-banner" role="status">
          {format(r.task, { status: statusWord(task.toStatus), when: formatTime(lang, task.createdAt) })}
        </p>
      ))}
      <button type="button" className="button secondary" onClick={() => void checkRegistryAgain()} disabled={busy} aria-busy={busy}>
        {busy ? r.checking : r.again}
      </button>
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
