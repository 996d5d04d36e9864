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
}

/** Password input with show/hide; Chinese characters are ignored as the person types (passwords are letters and digits). */
export function PasswordInput({ id, label, value, onChange, error, autoComplete, showLabel, hideLabel }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame id={id} label={label} error={error}>
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
