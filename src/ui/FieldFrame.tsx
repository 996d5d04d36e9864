import type { ReactNode } from 'react';

/** What the framed control carries so that its hint and error are announced with it. */
export interface FieldAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldFrameProps {
  /** The control's id: the label points at it, the hint and error are `${id}-hint` and `${id}-error`. */
  id: string;
  label: string;
  error?: string;
  /** Shown under the control, e.g. a character counter. */
  hint?: string;
  /** Extra class names beside `field`. */
  className?: string;
  /** Marks the label with the asterisk every required field of the portal shows (the control says "required" itself). */
  required?: boolean;
  /** The control itself, given the aria attributes that tie it to the hint and the error. */
  children: (aria: FieldAria) => ReactNode;
}

/** The frame of every form field: its label, the control, a hint and an announced error. */
export function FieldFrame({ id, label, error, hint, className, required, children }: FieldFrameProps) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id} className={required ? REQUIRED_CLASS : undefined}>
        {label}
      </label>
      {children({ 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The class of a required field's label: the one mark (an asterisk drawn by forms.css, with empty alternative
 * text, so the label's words and accessible name stay the field's name; the control says "required" itself).
 */
export const REQUIRED_CLASS = 'required';
