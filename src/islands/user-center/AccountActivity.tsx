import { useEffect, useState } from 'react';
import { opsPeopleApi } from '../../api/ops-people';
import type { Messages } from '../../i18n';
import { problemOf, problemText, type Problem } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import type { ActivityEntry } from '../../schemas/ops-people';
import { ScrollTable } from '../../ui/ScrollTable';
import { actionLabel } from '../ops/audit/action-label';
import { timeLabel } from './security-labels';

interface AccountActivityProps {
  lang: Lang;
  messages: Pick<Messages, 'errors' | 'accountActivity' | 'actionNames'>;
}

/**
 * The person's own part of the audit trail: security changes to their account, by themselves, their company's
 * administrator or the platform's support (never which operator, nor the operator's notes).
 */
export function AccountActivity({ lang, messages }: AccountActivityProps) {
  const m = messages.accountActivity;
  const [entries, setEntries] = useState<ActivityEntry[] | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => {
    void opsPeopleApi.activity().then((answer) => {
      if (answer.ok) setEntries(answer.data);
      else setError(problemOf(answer));
    });
  }, []);
  return (
    <section className="panel" aria-labelledby="account-activity-title">
      <h3 id="account-activity-title" className="subsection-title">{m.title}</h3>
      <p className="hint">{m.hint}</p>
      {error && (
        <p className="error" role="alert">
          {problemText(messages, error)}
        </p>
      )}
      {entries && entries.length === 0 && <p className="hint">{m.none}</p>}
      {entries && entries.length > 0 && (
        <ScrollTable label={m.table} className="members account-activity" columns={[m.whenColumn, m.whatColumn]}>
          {entries.map((entry, i) => (
            <tr key={`${entry.at}-${i}`}>
              <td>{timeLabel(entry.at, lang)}</td>
              <td>
                {actionLabel(messages, entry.action)}
                <span className="history-detail">
                  {m.by[entry.by]}
                  {entry.network && ` · ${entry.network}`}
                </span>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}
