import { useState } from 'react';
import { withoutChinese } from '../lib/password-hash';

interface PasswordInputProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoComplete: 'current-password' | 'new-password';
  showLabel: string;
  hideLabel: string;
}

/** Password input with show/hide; Chinese characters are ignored as the person types (spec 5). */
export function PasswordInput({ id, label, value, onChange, error, autoComplete, showLabel, hideLabel }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-action">
        <input
          id={id}
          className="input"
          type={visible ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          maxLength={64}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(withoutChinese(event.target.value))}
        />
        <button type="button" className="input-action" aria-pressed={visible} onClick={() => setVisible(!visible)}>
          {visible ? hideLabel : showLabel}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
