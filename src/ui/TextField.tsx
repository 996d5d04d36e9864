import type { InputHTMLAttributes } from 'react';
import { FieldFrame } from './FieldFrame';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'id'> {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Shown under the input, e.g. a character counter. */
  hint?: string;
}

/** A labelled input whose error is announced and tied to it. */
export function TextField({ id, label, value, onChange, error, hint, ...rest }: TextFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={rest.required}>
      {(aria) => <input {...rest} {...aria} id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)} />}
    </FieldFrame>
  );
}
