import { useState } from 'react';
import { withoutChinese } from '../lib/password-hash';
import { FieldFrame } from './FieldFrame';

interface PasswordInputProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete: 'current-password' | 'new-password';
  showLabel: string;
  hideLabel: string;
  /** Marks the label as every required field of its form is marked (FieldFrame). */
  required?: boolean;
}

/** Password input with show/hide; Chinese characters are ignored as the person types (passwords are letters and digits). */
export function PasswordInput({ id, label, value, onChange, error, autoComplete, showLabel, hideLabel, required }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} error={error} required={required}>
      {(aria) => (
        <div className="input-with-action">
          <input
            {...aria}
            id={id}
            className="input"
            type={visible ? 'text' : 'password'}
            value={value}
            autoComplete={autoComplete}
            maxLength={64}
            required={required}
            onChange={(event) => onChange(withoutChinese(event.target.value))}
          />
          <button type="button" className="input-action" aria-pressed={visible} onClick={() => setVisible(!visible)}>
            {visible ? hideLabel : showLabel}
          </button>
        </div>
      )}
    </FieldFrame>
  );
}
