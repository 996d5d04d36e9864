import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { $operator, loadOperator, signOutOperator } from '../../../stores/ops-session';
import { opsNavFor } from './nav';
import { format } from '../../../i18n/format';

/** The operator area's navigation, by role, with who is signed in and the sign-out. */
export default function OpsNav({ messages, current }: { messages: Pick<Messages, 'ops'>; current: string }) {
  const m = messages.ops;
  const operator = useStore($operator);
  useEffect(() => {
    void loadOperator();
  }, []);
  if (!operator) return null;
  return (
    // One landmark for the whole bar, so who is signed in and the sign-out are inside it too.
    <nav className="ops-nav ops-nav-bar" aria-label={m.nav.label}>
      <ul>
        {opsNavFor(operator.role).map((item) => (
          <li key={item.key}>
            <a href={item.href} aria-current={item.href === current ? 'page' : undefined}>
              {m.nav[item.key]}
            </a>
          </li>
        ))}
      </ul>
      <div className="ops-who">
        <span data-ops-operator>{format(m.nav.signedInAs, { name: operator.name, role: m.roles[operator.role] })}</span>
        <button type="button" className="button secondary" onClick={() => void signOutOperator()}>
          {m.nav.signOut}
        </button>
      </div>
    </nav>
  );
}
