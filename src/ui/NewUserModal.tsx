import { useState } from 'react';
import { Modal } from './Modal';
import { TextField } from './TextField';

interface NewUserModalProps {
  maxLength: number;
  labels: { title: string; identity: string; principal: string; serviceProvider: string; companyName: string; continue: string; cancel: string };
  messages: { required: string; tooLong: string };
  onContinue: (answers: { userIdentity: 1 | 2; companyName: string }) => void;
  onCancel: () => void;
}

/** A new user picks principal or service provider and names the company (required, ≤ 50, counter). */
export function NewUserModal({ maxLength, labels, messages, onContinue, onCancel }: NewUserModalProps) {
  const [identity, setIdentity] = useState<1 | 2>(1);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    const trimmed = name.trim();
    if (!trimmed) return setError(messages.required);
    if ([...trimmed].length > maxLength) return setError(messages.tooLong);
    onContinue({ userIdentity: identity, companyName: trimmed });
  };
  return (
    <Modal title={labels.title} onCancel={onCancel}>
      <fieldset className="choice-group">
        <legend>{labels.identity}</legend>
        {(
          [
            [1, labels.principal],
            [2, labels.serviceProvider],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="choice">
            <input type="radio" name="identity" checked={identity === value} onChange={() => setIdentity(value)} />
            {text}
          </label>
        ))}
      </fieldset>
      <TextField
        id="new-company-name"
        label={labels.companyName}
        value={name}
        onChange={(value) => {
          setName(value);
          setError(undefined);
        }}
        error={error}
        hint={`${[...name].length}/${maxLength}`}
        maxLength={maxLength}
        autoComplete="organization"
      />
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {labels.cancel}
        </button>
        <button type="button" className="button primary" onClick={submit}>
          {labels.continue}
        </button>
      </div>
    </Modal>
  );
}
