import type { ReactNode } from 'react';
import { Modal } from './Modal';

interface ModalFormProps {
  title: string;
  /** Escape, the close button and Cancel call this. */
  onCancel: () => void;
  /** Enter in a field or the submit button; the browser's own validation is off (the form says its errors). */
  onSubmit: () => void;
  /** The form's problem in words, said as an alert above the buttons. */
  error?: string | null;
  /** The submit button is off while this holds (a call under way, or a choice still missing). */
  disabled?: boolean;
  cancelLabel: string;
  submitLabel: string;
  /** Where focus goes on close when what opened the form no longer holds it. */
  returnFocusTo?: () => HTMLElement | null;
  children: ReactNode;
}

/** A form in a modal dialog: its fields, its problem, then Cancel and the submit button. */
export function ModalForm({ title, onCancel, onSubmit, error, disabled, cancelLabel, submitLabel, returnFocusTo, children }: ModalFormProps) {
  return (
    <Modal title={title} onCancel={onCancel} returnFocusTo={returnFocusTo}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {error && (
          <p className="error form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button secondary" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="submit" className="button primary" disabled={disabled}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
