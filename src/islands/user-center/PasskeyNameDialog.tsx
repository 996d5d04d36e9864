import { useState } from 'react';
import type { Messages } from '../../i18n';
import { hiddenCharacterIn } from '../../schemas/display-text';
import { PASSKEY_NAME_MAX } from '../../schemas/passkeys';
import { closeDialog } from '../../stores/dialog';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';

/** The name dialog of Add and Rename: a required name of at most 64 characters. */
export function PasskeyNameDialog({ title, value, submit, m }: { title: string; value: string; submit: string; m: Messages['passkeys'] }) {
  const [name, setName] = useState(value);
  const [error, setError] = useState('');
  return (
    <Modal title={title} onCancel={() => closeDialog()}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (!trimmed) return setError(m.nameRequired);
          if (hiddenCharacterIn(trimmed)) return setError(m.nameHiddenCharacters);
          closeDialog(trimmed);
        }}
      >
        <TextField
          id="passkey-name"
          label={m.nameLabel}
          hint={m.nameHint}
          value={name}
          onChange={(v) => {
            setName(v);
            setError('');
          }}
          error={error}
          maxLength={PASSKEY_NAME_MAX}
          autoComplete="off"
          autoFocus
        />
        <div className="modal-actions">
          <button type="button" className="button secondary" onClick={() => closeDialog()}>
            {m.cancel}
          </button>
          <button type="submit" className="button primary">
            {submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}

