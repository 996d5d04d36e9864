import { useEffect, useState } from 'react';
import { opsApi } from '../../../api/ops';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemOf, problemText, type Problem } from '../../../i18n/problem';
import { joinList, type Lang } from '../../../lib/lang';
import type { OperatorListItem } from '../../../schemas/ops';
import { EmailAddress } from '../../../ui/EmailAddress';
import { ScrollTable } from '../../../ui/ScrollTable';

/** /ops/operators (admins): every operator, role, second step and status. Adding and removing is the CLI's. */
export default function OperatorsList({ messages, lang }: { messages: Pick<Messages, 'ops' | 'errors'>; lang: Lang }) {
  const m = messages.ops;
  const [rows, setRows] = useState<OperatorListItem[] | null>(null);
  const [failed, setFailed] = useState<Problem | null>(null);
  useEffect(() => {
    void opsApi.operators().then((answer) => (answer.ok ? setRows(answer.data) : setFailed(problemOf(answer))));
  }, []);
  if (failed) return <p className="error form-error" role="alert">{problemText(messages, failed)}</p>;
  if (!rows) return <p className="hint" role="status">…</p>;
  const date = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium' });
  const o = m.operators;
  return (
    <>
      <ScrollTable label={o.caption} className="members ops-operators" columns={[o.login, o.name, o.role, o.secondStep, o.created, o.status]}>
        {rows.map((row) => (
          <tr key={row.login} data-operator={row.login}>
            <td>
              <EmailAddress value={row.login} />
            </td>
            <td>{row.name}</td>
            <td>{m.roles[row.role]}</td>
            <td>{row.secondSteps.length ? joinList(lang, row.secondSteps.map((kind) => o[kind])) : '—'}</td>
            <td>{date.format(row.createdAt)}</td>
            <td>{row.removedAt !== null ? o.removed : row.enrolled ? o.active : o.notEnrolled}</td>
          </tr>
        ))}
      </ScrollTable>
      <p className="hint ops-cli">{o.cli}</p>
    </>
  );
}
