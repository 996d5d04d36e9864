import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { pageTime } from '../../lib/notice-time';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { $dialog, closeDialog } from '../../stores/dialog';
import { $passkeys, addPasskey, endPasskeyReview, loadPasskeys, removePasskey, renamePasskey } from '../../stores/passkeys';
import { $stepUp } from '../../stores/step-up-state';
import { Modal } from '../../ui/Modal';
import './passkeys.css';
import { format } from '../../i18n/format';

// The name dialog and the user-agent names load with the first Add or Rename: the page's first load stays small.
const PasskeyNameDialog = lazy(() => import('./PasskeyNameDialog').then((m) => ({ default: m.PasskeyNameDialog })));

interface PasskeysProps {
  lang: Lang;
  messages: Pick<Messages, 'passkeys' | 'errors' | 'stepUp'>;
}

/**
 * The person's passkeys in the user center's Security section: name, when added and last used; add, rename,
 * remove. A browser without WebAuthn is told so instead.
 */
export function Passkeys({ lang, messages }: PasskeysProps) {
  // A Chinese page writes the full-width colon (issue 33).
  const colon = lang === 'zh' ? '：' : ': ';
  const m = messages.passkeys;
  const s = useStore($passkeys);
  const dialog = useStore($dialog);
  // While "Confirm it's you" is open, the device is not asked anything yet.
  const confirming = useStore($stepUp).phase !== 'closed';
  const addButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void loadPasskeys();
  }, []);

  const when = (at: number) => pageTime(at, lang);
  const add = async () => {
    const { deviceOf } = await import('../../lib/device-name');
    const { browser, os } = deviceOf(navigator.userAgent);
    const suggested = format(m.deviceName, { browser: browser ?? m.someBrowser, os: os ?? m.someDevice });
    void addPasskey({ suggested, external: m.securityKey });
  };
  const words = { passkeys: m, errors: messages.errors };

  return (
    <section className="passkeys" aria-labelledby="passkeys-title">
      <h3 id="passkeys-title" className="subsection-title">{m.title}</h3>
      <p className="hint">{m.hint}</p>
      {s.phase === 'unsupported' ? (
        <p className="notice">{m.unsupported}</p>
      ) : (
        <>
          {s.phase === 'ready' && s.reviewSince !== null && s.items.length > 0 && (
            // After a password reset by code: the passkeys are shown for review, each with its remove button below.
            <div className="notice passkey-review" role="note" data-passkey-review>
              <p>
                <strong>{messages.stepUp.reviewTitle}</strong>
              </p>
              <p>{messages.stepUp.reviewText.replace('{when}', when(s.reviewSince))}</p>
              <button type="button" className="button secondary small" disabled={s.busy} onClick={() => void endPasskeyReview()}>
                {messages.stepUp.reviewDone}
              </button>
            </div>
          )}
          {s.phase === 'ready' &&
            (s.items.length ? (
              <ul className="passkey-list" aria-label={m.listLabel}>
                {s.items.map((passkey) => (
                  <li key={passkey.id} className="passkey">
                    <div className="passkey-text">
                      <strong className="passkey-name">{passkey.name}</strong>
                      <span className="hint">
                        {m.created}{colon}{when(passkey.createdAt)} · {m.lastUsed}{colon}{passkey.lastUsedAt ? when(passkey.lastUsedAt) : m.never}
                        {passkey.synced && ` · ${m.synced}`}
                      </span>
                    </div>
                    <div className="passkey-actions">
                      <button
                        type="button"
                        className="button secondary small"
                        disabled={s.busy}
                        aria-label={format(m.renameLabel, { name: passkey.name })}
                        onClick={() => void renamePasskey(passkey)}
                      >
                        {m.rename}
                      </button>
                      <button
                        type="button"
                        className="button danger small"
                        disabled={s.busy}
                        aria-label={format(m.removeLabel, { name: passkey.name })}
                        onClick={() => void removePasskey(passkey).then((gone) => gone && addButton.current?.focus())}
                      >
                        {m.remove}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="hint">{m.empty}</p>
            ))}
          <div className="live-region" role="status" aria-live="polite">
            {s.notice && <p className="notice">{problemText(words, s.notice)}</p>}
            {s.busy && dialog === null && !confirming && <p className="hint">{m.adding}</p>}
          </div>
          {s.error && (
            <p className="error" role="alert">
              {problemText(words, s.error)}
            </p>
          )}
          <div className="form-actions">
            <button ref={addButton} type="button" className="button secondary" disabled={s.busy || s.phase === 'loading'} onClick={() => void add()}>
              {m.add}
            </button>
          </div>
        </>
      )}

      <Suspense fallback={null}>
        {dialog?.kind === 'passkeyName' && (
          <PasskeyNameDialog
            key={dialog.purpose}
            title={dialog.purpose === 'add' ? m.addTitle : m.renameTitle}
            submit={dialog.purpose === 'add' ? m.continue : m.save}
            value={dialog.value}
            m={m}
          />
        )}
      </Suspense>
      {dialog?.kind === 'confirm' && dialog.subject === 'removePasskey' && (
        <Modal title={m.removeTitle} onCancel={() => closeDialog()}>
          <p>{format(m.removeText, { name: dialog.name })}</p>
          {/* Cancel comes first: the dialog opens with focus on it, so Enter does not remove by accident. */}
          <div className="modal-actions">
            <button type="button" className="button secondary" onClick={() => closeDialog()}>
              {m.cancel}
            </button>
            <button type="button" className="button danger" onClick={() => closeDialog(true)}>
              {m.remove}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
