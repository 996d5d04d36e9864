import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText } from '../../../i18n/problem';
import { $operator, $operatorProblem, $passkeyNotice, addOperatorPasskey, loadOperator } from '../../../stores/ops-session';
import { opsNavFor } from '../shared/nav';
import { format } from '../../../i18n/format';

/** /ops: a welcome and the areas this operator's role opens. */
export default function OpsHome({ messages }: { messages: Pick<Messages, 'ops' | 'errors'> }) {
  const m = messages.ops;
  const operator = useStore($operator);
  const failed = useStore($operatorProblem);
  const passkeyNotice = useStore($passkeyNotice);
  useEffect(() => {
    void loadOperator();
  }, []);
  if (failed) return <p className="error form-error" role="alert">{problemText(messages, failed)}</p>;
  if (!operator) return <p className="hint" role="status">…</p>;
  return (
    <div className="ops-home">
      <p data-ops-welcome>{format(m.home.welcome, { name: operator.name })}</p>
      <ul className="ops-areas">
        {opsNavFor(operator.role)
          .filter((item) => item.key !== 'home')
          .map((item) => (
            <li key={item.key}>
              <a href={item.href}>{m.nav[item.key]}</a>
              <p className="hint">{m.home[item.key as Exclude<typeof item.key, 'home'>]}</p>
            </li>
          ))}
      </ul>
      <section className="ops-passkey" aria-labelledby="ops-passkey-title">
        <h2 id="ops-passkey-title" className="section-title">
          {m.home.passkeyTitle}
        </h2>
        <p className="hint">{m.home.passkeyIntro}</p>
        <div role="status" aria-live="polite">
          {passkeyNotice?.ok && <p className="notice">{problemText(messages, passkeyNotice.problem)}</p>}
        </div>
        {passkeyNotice && !passkeyNotice.ok && (
          <p className="error form-error" role="alert">
            {problemText(messages, passkeyNotice.problem)}
          </p>
        )}
        <button type="button" className="button secondary" onClick={() => void addOperatorPasskey()}>
          {m.home.addPasskey}
        </button>
      </section>
    </div>
  );
}
