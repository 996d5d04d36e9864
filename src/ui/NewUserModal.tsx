import { useState } from 'react';
import type { NewUserAnswers } from '../stores/dialog';
import { Modal } from './Modal';
import { TextField } from './TextField';

interface NewUserModalProps {
  maxLength: number;
  labels: {
    title: string;
    purpose: string;
    create: string;
    createText: string;
    join: string;
    joinText: string;
    identity: string;
    principal: string;
    serviceProvider: string;
    companyName: string;
    continue: string;
    cancel: string;
  };
  messages: { required: string; tooLong: string };
  onContinue: (answers: NewUserAnswers) => void;
  onCancel: () => void;
}

/**
 * A new user says first whether they open their company's account or join one (issue 47). Opening one, they pick
 * principal or service provider and name the company (required, ≤ 50, counter); joining, nothing more is asked:
 * the company they join has both.
 */
export function NewUserModal({ maxLength, labels, messages, onContinue, onCancel }: NewUserModalProps) {
  const [purpose, setPurpose] = useState<'create' | 'join'>('create');
  const [identity, setIdentity] = useState<1 | 2>(1);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const submit = () => {
    if (purpose === 'join') return onContinue({ joining: true });
    const trimmed = name.trim();
    if (!trimmed) return setError(messages.required);
    if ([...trimmed].length > maxLength) return setError(messages.tooLong);
    onContinue({ userIdentity: identity, companyName: trimmed });
  };
  return (
    <Modal title={labels.title} onCancel={onCancel}>
      <fieldset className="choice-group">
        <legend>{labels.purpose}</legend>
        {(
          [
            ['create', labels.create, labels.createText],
            ['join', labels.join, labels.joinText],
          ] as const
        ).map(([value, text, hint]) => (
          <label key={value} className="choice choice-described">
            <input type="radio" name="purpose" checked={purpose === value} onChange={() => setPurpose(value)} aria-describedby={`purpose-${value}-hint`} />
            <span>
              {text}
              <span className="hint" id={`purpose-${value}-hint`}>
                {hint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {purpose === 'create' && (
        <>
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
        </>
      )}
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
