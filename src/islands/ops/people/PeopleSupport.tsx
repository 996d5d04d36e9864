import { useStore } from '@nanostores/react';
import { useEffect, type FormEvent, type ReactNode } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText } from '../../../i18n/problem';
import type { Lang } from '../../../lib/lang';
import {
  $acting,
  $pendingAction,
  $people,
  $reason,
  $reasonError,
  askReason,
  cancelAction,
  closePerson,
  confirmAction,
  listClosing,
  openPerson,
  search,
  setQuery,
} from '../../../stores/ops-people';
import type { SupportAction } from '../../../api/ops-people';
import type { PersonDetail } from '../../../schemas/ops-people';
import { EmailAddress } from '../../../ui/EmailAddress';
import { FieldFrame } from '../../../ui/FieldFrame';
import { Modal } from '../../../ui/Modal';
import { ScrollTable } from '../../../ui/ScrollTable';
import { TextField } from '../../../ui/TextField';
import { deviceLabel, signInMethodLabel, timeLabel } from '../../user-center/security-labels';
import { format } from '../../../i18n/format';

type OpsPeopleMessages = Pick<Messages, 'opsPeople' | 'errors' | 'security'>;

interface PeopleSupportProps {
  lang: Lang;
  messages: OpsPeopleMessages;
}

/** Which actions fit the person's state: unblock only a blocked account, reset two-step only when it is on. */
function actionsFor(person: PersonDetail): SupportAction[] {
  const { profile, twoStep, lock, sessions } = person;
  const actions: SupportAction[] = [];
  if (lock.failures.length) actions.push('unlock');
  if (sessions.length) actions.push('signOut');
  if (!profile.mustChangePassword) actions.push('requirePasswordChange');
  if (twoStep.enabled) actions.push('resetTwoStep');
  actions.push(profile.blocked ? 'unblock' : 'block');
  // A closing account's erasure can be held for a legal reason; a hold can be lifted at any time.
  if (profile.closure.legalHold) actions.push('liftLegalHold');
  else if (profile.closure.closesAt !== null && profile.closure.erasedAt === null) actions.push('legalHold');
  return actions;
}

/**
 * People support for operators: find a person, see their account (profile, companies, sessions, sign-ins,
 * lock and two-step state) and act for them. Every action asks for the reason that goes into the audit trail.
 */
export default function PeopleSupport({ lang, messages }: PeopleSupportProps) {
  const m = messages.opsPeople;
  const s = useStore($people);
  const pending = useStore($pendingAction);
  const reason = useStore($reason);
  const reasonError = useStore($reasonError);
  const acting = useStore($acting);
  const say = (p: Parameters<typeof problemText>[1]) => problemText(messages, p);
  const person = s.person;
  // `?person=<id>` opens that person (the audit trail links each person it names here).
  useEffect(() => {
    const id = new URLSearchParams(location.search).get('person');
    if (id) void openPerson(id);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void search(1);
  };

  return (
    <div className="ops-people">

      <div className="live-region" role="status" aria-live="polite">
        {s.notice && <p className="notice">{say(s.notice)}</p>}
      </div>
      {s.error && (
        <p className="error" role="alert">
          {say(s.error)}
        </p>
      )}

      {!person && (
        <>
          <form className="ops-search" role="search" onSubmit={submit}>
            <TextField id="ops-people-q" label={m.searchLabel} hint={m.searchHint} value={s.query} onChange={setQuery} autoComplete="off" maxLength={100} />
            <button type="submit" className="button primary" disabled={s.searching}>
              {m.search}
            </button>
          </form>
          <p className="hint">{m.closingHint}</p>
          <button type="button" className="button secondary" disabled={s.searching} onClick={() => void listClosing()}>
            {m.showClosing}
          </button>
          {s.results && s.results.length === 0 && <p className="hint">{m.noResults}</p>}
          {s.results && s.results.length > 0 && (
            <>
              <ScrollTable label={m.resultsTable} className="members ops-results" columns={[m.nameColumn, m.contactColumn, m.registeredColumn]}>
                {s.results.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <button type="button" className="text-button" onClick={() => void openPerson(p.id)}>
                        {p.name || p.id}
                      </button>
                      {p.blocked && <span className="badge" data-tone="bad">{m.blocked}</span>}
                      <ClosureMarks lang={lang} messages={messages} closure={p.closure} />
                    </td>
                    <td>{[p.phone, p.email].filter(Boolean).join(' · ') || m.none}</td>
                    <td>{timeLabel(p.createdAt, lang)}</td>
                  </tr>
                ))}
              </ScrollTable>
              <div className="ops-pager">
                {s.page > 1 && (
                  <button type="button" className="button secondary" onClick={() => void search(s.page - 1)}>
                    {m.previousPage}
                  </button>
                )}
                {s.more && (
                  <button type="button" className="button secondary" onClick={() => void search(s.page + 1)}>
                    {m.nextPage}
                  </button>
                )}
              </div>
            </>
          )}
        </>
      )}

      {person && <PersonView lang={lang} messages={messages} person={person} />}

      {pending && person && (
        <Modal title={pending.kind === 'person' ? m.actions[pending.action] : m.actions.transfer} onCancel={cancelAction}>
          <p>
            {pending.kind === 'person'
              ? m.explain[pending.action]
              : format(m.explain.transfer, { name: person.profile.name || person.profile.id, company: pending.companyName })}
          </p>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void confirmAction();
            }}
          >
            <FieldFrame id="ops-reason" label={m.reasonLabel} hint={m.reasonHint} error={reasonError ? say(reasonError) : undefined}>
              {(aria) => <textarea {...aria} id="ops-reason" className="input" rows={3} maxLength={500} value={reason} onChange={(e) => $reason.set(e.target.value)} />}
            </FieldFrame>
            <div className="modal-actions">
              <button type="button" className="button secondary" onClick={cancelAction}>
                {m.cancel}
              </button>
              <button type="submit" className="button primary" disabled={acting}>
                {m.confirm}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </div>
  );
}

function PersonView({ lang, messages, person }: PeopleSupportProps & { person: PersonDetail }) {
  const m = messages.opsPeople;
  const { profile, memberships, sessions, signIns, lock, twoStep } = person;
  const time = (at: number) => timeLabel(at, lang);
  return (
    <article className="ops-person" aria-labelledby="ops-person-name">
      <button type="button" className="text-button" onClick={closePerson}>
        {m.back}
      </button>
      <h2 id="ops-person-name" className="section-title">
        {profile.name || profile.id} {profile.blocked && <span className="badge" data-tone="bad">{m.blocked}</span>}
      </h2>

      <section className="panel" aria-labelledby="ops-profile">
        <h3 id="ops-profile" className="subsection-title">{m.profileTitle}</h3>
        <dl className="ops-facts">
          <dt>{m.userId}</dt>
          <dd>{profile.id}</dd>
          <dt>{m.loginName}</dt>
          <dd>{profile.loginName ? <EmailAddress value={profile.loginName} /> : m.none}</dd>
          <dt>{m.phone}</dt>
          <dd>{profile.phone ?? m.none}</dd>
          <dt>{m.email}</dt>
          <dd>{profile.email ? <EmailAddress value={profile.email} /> : m.none}</dd>
          <dt>{m.registered}</dt>
          <dd>{time(profile.createdAt)}</dd>
        </dl>
        <p className="history-marks">
          {profile.partner && <span className="badge">{m.partner}</span>}
          {profile.mustChangePassword && <span className="badge" data-tone="waiting">{m.mustChangePassword}</span>}
          {profile.blockedAt !== null && <span className="badge" data-tone="bad">{format(m.blockedSince, { time: time(profile.blockedAt) })}</span>}
          <ClosureMarks lang={lang} messages={messages} closure={profile.closure} />
        </p>
      </section>

      <section className="panel" aria-labelledby="ops-state">
        <h3 id="ops-state" className="subsection-title">{m.lockTitle}</h3>
        <p>
          <span className="badge" data-tone={lock.locked ? 'bad' : 'good'}>{lock.locked ? m.locked : m.notLocked}</span>
        </p>
        {lock.failures.length > 0 && (
          <ul className="ops-list">
            {lock.failures.map((f) => (
              <li key={f.network}>
                {format(m.failuresLine, { failures: f.failures, network: f.network })}
                {f.lockedUntil !== null && f.lockedUntil > Date.now() && ` · ${format(m.lockedUntil, { time: time(f.lockedUntil) })}`}
              </li>
            ))}
          </ul>
        )}
        <h3 className="subsection-title">{m.twoStepTitle}</h3>
        <p>
          {twoStep.enabled ? format(m.twoStepOn, { n: twoStep.recoveryCodesLeft }) : m.twoStepOff} · {format(m.passkeys, { n: twoStep.passkeys })}
        </p>
      </section>

      <section className="panel" aria-labelledby="ops-actions">
        <h3 id="ops-actions" className="subsection-title">{m.actionsTitle}</h3>
        <div className="ops-actions">
          {actionsFor(person).map((action) => (
            <button
              key={action}
              type="button"
              className={action === 'block' || action === 'resetTwoStep' ? 'button danger' : 'button secondary'}
              onClick={() => askReason({ kind: 'person', action })}
            >
              {m.actions[action]}
            </button>
          ))}
          {/* With the person's support code (issue 44): the console's "View as" with this person filled in. */}
          <a className="button secondary" href={`/ops/support?person=${encodeURIComponent(profile.id)}`}>
            {m.viewAs}
          </a>
        </div>
      </section>

      <ListPanel id="ops-memberships" title={m.membershipsTitle} none={m.noMemberships} table={m.membershipsTable}
        columns={[m.companyColumn, m.roleColumn, m.statusColumn]}
        rows={memberships.map((c) => (
          <tr key={c.companyId}>
            <td>{c.companyName}</td>
            <td>{m.roles[c.role]}</td>
            <td>
              {m.memberStatuses[c.status]}
              {c.role === 'staff' && c.status === 'active' && (
                <button type="button" className="text-button" onClick={() => askReason({ kind: 'transfer', companyId: c.companyId, companyName: c.companyName })}>
                  {m.makeAdministrator}
                </button>
              )}
            </td>
          </tr>
        ))}
      />

      <ListPanel id="ops-sessions" title={m.sessionsTitle} none={m.noSessions} table={m.sessionsTable}
        columns={[m.startedColumn, m.lastSeenColumn, m.whereColumn]}
        rows={sessions.map((session, i) => (
          <tr key={`${session.createdAt}-${i}`}>
            <td>{time(session.createdAt)}</td>
            <td>{time(session.lastSeenAt)}</td>
            <td>
              {deviceLabel({ ...session, type: null }, messages.security)} · {session.country ?? '?'} · {session.network ?? m.none}
            </td>
          </tr>
        ))}
      />

      <ListPanel id="ops-sign-ins" title={m.signInsTitle} none={m.noSignIns} table={m.signInsTable}
        columns={[m.startedColumn, m.whereColumn]}
        rows={signIns.map((entry, i) => (
          <tr key={`${entry.at}-${i}`}>
            <td>
              {time(entry.at)} · {signInMethodLabel(entry, messages.security)}{' '}
              <span className="badge" data-tone={entry.success ? 'good' : 'bad'}>{entry.success ? m.succeeded : m.failed}</span>
            </td>
            <td>
              {deviceLabel(entry, messages.security)} · {entry.network ?? m.none}
            </td>
          </tr>
        ))}
      />
    </article>
  );
}

/** A closing or erased account, and a legal hold with its reason. */
function ClosureMarks({ lang, messages, closure }: PeopleSupportProps & { closure: PersonDetail['profile']['closure'] }) {
  const m = messages.opsPeople;
  const time = (at: number) => timeLabel(at, lang);
  return (
    <>
      {closure.erasedAt !== null ? (
        <span className="badge">{format(m.erasedOn, { time: time(closure.erasedAt) })}</span>
      ) : (
        closure.closesAt !== null && <span className="badge" data-tone="waiting">{format(m.closingOn, { time: time(closure.closesAt) })}</span>
      )}
      {closure.legalHold && <span className="badge" data-tone="bad">{format(m.legalHoldSince, { time: time(closure.legalHold.at), reason: closure.legalHold.reason })}</span>}
    </>
  );
}

/** One of the person's lists: a titled panel with its table, or a line saying there is none. */
function ListPanel({ id, title, none, table, columns, rows }: { id: string; title: string; none: string; table: string; columns: string[]; rows: ReactNode[] }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h3 id={id} className="subsection-title">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="hint">{none}</p>
      ) : (
        <ScrollTable label={table} className="members" columns={columns}>
          {rows}
        </ScrollTable>
      )}
    </section>
  );
}
