import { useState } from 'react';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import type { Messages } from '../../i18n';
import { problemOf, problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { format } from '../../i18n/format';

interface ShareSignInProps {
  lang: Lang;
  messages: Pick<Messages, 'linkSignIn' | 'errors'>;
  /** The user center's frame, before its reads answer (the button does nothing before the island runs). */
  waiting?: boolean;
}

/**
 * "Sign in on another device" (/share_login): makes a one-time link for this account, shown to
 * copy or open on the other device. Each click makes a new link; older ones keep their own 10 minutes.
 */
export function ShareSignIn({ lang, messages, waiting }: ShareSignInProps) {
  const m = messages.linkSignIn;
  const [link, setLink] = useState<{ url: string; until: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');

  const create = async () => {
    if (busy) return;
    setBusy(true);
    setError('');
    setNotice('');
    // Handing the account to another device asks "Confirm it's you" when this session has no fresh proof.
    // The call and its schema load with the first click (issue 31).
    const [{ loginLinkApi }, { pageTime }] = await Promise.all([import('../../api/login-links'), import('../../lib/notice-time')]);
    const answer = await withFreshProof(loginLinkApi.createShareLink);
    setBusy(false);
    if (!answer.ok) return answer.code === STEP_UP_CANCELLED ? undefined : setError(problemText({ errors: messages.errors }, problemOf(answer)));
    const until = pageTime(Date.now() + answer.data.expiresIn * 1000, lang, { timeOnly: true });
    setLink({ url: answer.data.url, until });
  };
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setNotice(m.shareCopied);
    } catch {
      setError(messages.errors.generic);
    }
  };

  return (
    <section className="panel" aria-labelledby="share-sign-in-title">
      <h2 id="share-sign-in-title" className="section-title">{m.shareTitle}</h2>
      <p className="hint">{m.shareHint}</p>
      {link && (
        <div className="field">
          <label htmlFor="share-link">{format(m.shareExpires, { time: link.until })}</label>
          <input id="share-link" className="input" readOnly value={link.url} onFocus={(event) => event.target.select()} />
        </div>
      )}
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{notice}</p>}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="form-actions">
        <button type="button" className="button secondary" disabled={busy || waiting} onClick={() => void create()}>
          {m.shareCreate}
        </button>
        {link && (
          <button type="button" className="button secondary" onClick={() => void copy()}>
            {m.shareCopy}
          </button>
        )}
      </div>
    </section>
  );
}
