import type { ReactNode } from 'react';

interface SubmitFormProps {
  /** The store's flow that sends the form (the page never reloads). */
  onSend: () => unknown;
  /** The form-level error, already in words. */
  error: string | undefined;
  busy: boolean;
  submitLabel: string;
  className?: string;
  /** Buttons after the submit button. */
  actions?: ReactNode;
  children: ReactNode;
}

/** A form sent by a store flow: its fields, then its form-level error and its buttons, the submit button first. */
export function SubmitForm({ onSend, error, busy, submitLabel, className, actions, children }: SubmitFormProps) {
  return (
    <form
      noValidate
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        void onSend();
      }}
    >
      {children}
      {error && <p className="error form-error" role="alert">{error}</p>}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {submitLabel}
        </button>
        {actions}
      </div>
    </form>
  );
}
