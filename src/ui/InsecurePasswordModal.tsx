import { useState } from 'react';
import { Modal } from './Modal';
import { PasswordInput } from './PasswordInput';

interface InsecurePasswordModalProps {
  labels: { title: string; text: string; newPassword: string; confirmPassword: string; confirm: string; cancel: string; show: string; hide: string };
  messages: { required: string; rule: string; mismatch: string };
  meetsRule: (password: string) => boolean;
  onConfirm: (newPassword: string) => void;
  onCancel: () => void;
}

/** A password that breaks today's rule must be replaced; cancelling signs the person out. */
export function InsecurePasswordModal({ labels, messages, meetsRule, onConfirm, onCancel }: InsecurePasswordModalProps) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<{ password?: string; again?: string }>({});
  const submit = () => {
    if (!password) return setErrors({ password: messages.required });
    if (!meetsRule(password)) return setErrors({ password: messages.rule });
    if (!again) return setErrors({ again: messages.required });
    if (again !== password) return setErrors({ again: messages.mismatch });
    onConfirm(password);
  };
  return (
    <Modal title={labels.title} onCancel={onCancel}>
      <p className="lead">{labels.text}</p>
      <PasswordInput id="insecure-new" label={labels.newPassword} value={password} onChange={setPassword} error={errors.password} autoComplete="new-password" showLabel={labels.show} hideLabel={labels.hide} />
      <PasswordInput id="insecure-again" label={labels.confirmPassword} value={again} onChange={setAgain} error={errors.again} autoComplete="new-password" showLabel={labels.show} hideLabel={labels.hide} />
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {labels.cancel}
        </button>
        <button type="button" className="button primary" onClick={submit}>
          {labels.confirm}
        </button>
      </div>
    </Modal>
  );
}
