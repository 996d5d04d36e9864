import { useState } from 'react';
import { Modal } from './Modal';
import './secret-once.css';

interface SecretOnceProps {
  title: string;
  /** What to copy: the id (a client id, an endpoint's address) under its label, and the secret. */
  idLabel: string;
  id: string;
  secret: string;
  /** The owner's words: what to do with the secret, its label, Copy and its outcome, "I have copied it". */
  words: { secretText: string; secretLabel: string; copy: string; copied: string; copyFailed: string; done: string };
  onDone: () => void;
  /** Where focus goes on "I have copied it" when what opened this is gone (the form that made the secret). */
  returnFocusTo?: () => HTMLElement | null;
}

/**
 * A secret shown this once (an API client's, a webhook endpoint's signing secret; on creation or rotation): the id and
 * the secret, Copy, and "I have copied it". The owner keeps the secret in its state only while this is open.
 */
export function SecretOnce({ title, idLabel, id, secret, words, onDone, returnFocusTo }: SecretOnceProps) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <Modal title={title} onCancel={onDone} returnFocusTo={returnFocusTo}>
      <p>{words.secretText}</p>
      <dl className="secret-once">
        <dt>{idLabel}</dt>
        <dd>
          <code data-client-id>{id}</code>
        </dd>
        <dt>{words.secretLabel}</dt>
        <dd>
          <code data-client-secret>{secret}</code>
        </dd>
      </dl>
      <div role="status" aria-live="polite">
        {copied && <p className="hint">{copied}</p>}
      </div>
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(words.copied), () => setCopied(words.copyFailed))}>
          {words.copy}
        </button>
        <button type="button" className="button primary" onClick={onDone}>
          {words.done}
        </button>
      </div>
    </Modal>
  );
}
