import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $changePassword, initChangePassword, setField, submit, type ChangePasswordMessages } from '../../stores/change-password';
import { PasswordInput } from '../../ui/PasswordInput';

interface ChangePasswordProps {
  messages: ChangePasswordMessages;
}

/** /change_password: new password twice, then on by the login case (spec 2, case 2 with the original flag). */
export default function ChangePassword({ messages }: ChangePasswordProps) {
  const m = messages.signIn;
  const c = messages.changePassword;
  const s = useStore($changePassword);

  useEffect(() => initChangePassword(messages), [messages]);

  if (s.step === 'done') return <p className="notice redirecting" role="status">{c.done}</p>;
  return (
    <form
      className="change-password"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <PasswordInput id="change-password" label={c.newPassword} value={s.password} onChange={(v) => setField('password', v)} error={s.errors.password} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      <p className="hint" style={{ marginTop: -8, marginBottom: 14 }}>{c.ruleHint}</p>
      <PasswordInput id="change-confirm" label={c.confirmPassword} value={s.confirm} onChange={(v) => setField('confirm', v)} error={s.errors.confirm} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      {s.errors.form && <p className="error" role="alert">{s.errors.form}</p>}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy ? c.submitting : c.submit}
      </button>
    </form>
  );
}
