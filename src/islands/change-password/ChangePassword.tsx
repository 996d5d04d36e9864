import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $changePassword, $changePasswordCooldownUntil, initChangePassword, sendCode, setField, submit, type ChangePasswordMessages } from '../../stores/change-password';
import { CodeButton } from '../../ui/CodeButton';
import { PasswordInput } from '../../ui/PasswordInput';
import { TextField } from '../../ui/TextField';

interface ChangePasswordProps {
  messages: ChangePasswordMessages;
}

/**
 * /change_password: the proof the server asks for (the current password, or a code sent to the account;
 * nothing for the forced change right after sign-in), the new password twice, then on by the login case.
 */
export default function ChangePassword({ messages }: ChangePasswordProps) {
  const m = messages.signIn;
  const c = messages.changePassword;
  const s = useStore($changePassword);
  const cooldownUntil = useStore($changePasswordCooldownUntil);

  useEffect(() => void initChangePassword(messages), [messages]);

  if (s.step === 'done') return <p className="notice redirecting" role="status">{c.done}</p>;
  if (s.proof === 'loading') {
    return s.errors.form ? <p className="error" role="alert">{s.errors.form}</p> : <div className="spinner" aria-hidden="true" />;
  }
  return (
    <form
      className="change-password"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {s.proof === 'password' && (
        <PasswordInput id="change-current" label={c.currentPassword} value={s.current} onChange={(v) => setField('current', v)} error={s.errors.current} autoComplete="current-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      )}
      {s.proof === 'code' && (
        <>
          <p className="hint">{c.codeHint}</p>
          <div className="code-row">
            <TextField id="change-code" label={m.code} value={s.code} onChange={(v) => setField('code', v.replace(/\D/g, ''))} error={s.errors.code} inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
            <CodeButton cooldownUntil={cooldownUntil} sentBefore={cooldownUntil > 0} busy={s.busy} labels={m} onClick={() => void sendCode()} />
          </div>
          {s.notice && <p className="notice" role="status">{s.notice}</p>}
        </>
      )}
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
