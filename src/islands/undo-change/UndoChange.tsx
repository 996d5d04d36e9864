import { useEffect, useRef, useState } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemOf, problemText } from '../../i18n/problem';

interface UndoChangeProps {
  messages: { dataRights: Pick<Messages['dataRights'], 'undo'>; errors: Messages['errors'] };
}

type View = { kind: 'asking' } | { kind: 'done'; email: string } | { kind: 'problem'; text: string };

/**
 * /undo_change#TOKEN: "This wasn't me", from the notice at the old address of an e-mail change, without signing in
 * (functions/gateway/data-rights/service.ts undoEmailChange). Opening the page changes nothing (a mail scanner
 * may open links); only the button does. The secret is in the fragment, which no request or Referer carries.
 */
export default function UndoChange({ messages }: UndoChangeProps) {
  const u = messages.dataRights.undo;
  const token = location.hash.slice(1);
  const [view, setView] = useState<View>(/^[A-Za-z0-9_-]{43}$/.test(token) ? { kind: 'asking' } : { kind: 'problem', text: u.noLink });
  const [busy, setBusy] = useState(false);
  const result = useRef<HTMLParagraphElement>(null);
  const acted = useRef(false);
  const settled = (next: View) => {
    acted.current = true;
    setView(next);
  };
  // The outcome replaces the button that had focus: focus goes to what it says, once it is on the page.
  useEffect(() => {
    if (acted.current) result.current?.focus();
  }, [view]);
  const undo = async () => {
    setBusy(true);
    const { dataRightsApi } = await import('../../api/data-rights');
    const answer = await dataRightsApi.undoContact(token);
    setBusy(false);
    if (answer.ok) {
      // The secret is spent: it leaves the address bar and the history entry.
      history.replaceState(null, '', location.pathname);
      settled({ kind: 'done', email: answer.data.email });
    } else settled({ kind: 'problem', text: problemText({ errors: messages.errors }, problemOf(answer)) });
  };

  if (view.kind === 'problem') {
    return (
      <div className="undo-change">
        <p className="error" role="alert" ref={result} tabIndex={-1}>
          {view.text}
        </p>
        <p>{u.failedNext}</p>
        <a className="button secondary" href="/login">
          {u.toSignIn}
        </a>
      </div>
    );
  }
  if (view.kind === 'done') {
    return (
      <div className="undo-change">
        <p className="notice" role="status" ref={result} tabIndex={-1}>
          {format(u.done, { email: view.email })}
        </p>
        <h2 className="section-title">{u.nextTitle}</h2>
        <ol className="undo-steps">
          {u.next.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <a className="button primary" href="/forget">
          {u.setPassword}
        </a>
      </div>
    );
  }
  return (
    <div className="undo-change">
      <p>{u.what}</p>
      <ul className="undo-steps">
        {u.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ul>
      <button type="button" className="button primary" disabled={busy} onClick={() => void undo()}>
        {busy ? u.busy : u.confirm}
      </button>
    </div>
  );
}
