import { Modal } from './Modal';

interface ConfirmModalProps {
  title: string;
  text: string;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before something that cannot be undone here: a text, Cancel, and the action in the danger style. */
export function ConfirmModal({ title, text, cancelLabel, confirmLabel, onCancel, onConfirm }: ConfirmModalProps) {
  return (
    <Modal title={title} onCancel={onCancel}>
      <p>{text}</p>
      {/* Cancel comes first: the dialog opens with focus on it, so Enter does not confirm by accident. */}
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="button danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
