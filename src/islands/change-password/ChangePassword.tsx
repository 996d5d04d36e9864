import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import { $changePassword, $changePasswordCooldownUntil, $changePasswordErrors, initChangePassword, sendCode, setField, submit } from '../../stores/change-password';
import { CodeButton } from '../../ui/CodeButton';
import { PasswordInput } from '../../ui/PasswordInput';
import { TextField } from '../../ui/TextField';
import { useProblems } from '../shared/use-problems';

interface ChangePasswordProps {
  messages: Pick<Messages, 'changePassword' | 'signIn' | 'validation' | 'errors'>;
}

/**
 * /change_password: the proof the server asks for (the current password, or a code sent to the account;
 * nothing for the forced change right after sign-in), the new password twice, then on by the login case.
 */
export default function ChangePassword({ messages }: ChangePasswordProps) {
  const m = messages.signIn;
  const c = messages.changePassword;
  const s = useStore($changePassword);
  const errors = useProblems($changePasswordErrors, messages);
  const cooldownUntil = useStore($changePasswordCooldownUntil);

  useEffect(() => void initChangePassword(), []);

  if (s.step === 'done') return <p className="notice redirecting" role="status">{c.done}</p>;
  if (s.proof === 'loading') {
    return errors.form ? <p className="error" role="alert">{errors.form}</p> : <div className="spinner" aria-hidden="true" />;
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
        <PasswordInput id="change-current" label={c.currentPassword} value={s.current} onChange={(v) => setField('current', v)} error={errors.current} autoComplete="current-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      )}
      {s.proof === 'code' && (
        <>
          <p className="hint">{c.codeHint}</p>
          <div className="code-row">
            <CodeButton cooldownUntil={cooldownUntil} sentBefore={cooldownUntil > 0} busy={s.busy} labels={m} onClick={() => void sendCode()} />
            <TextField id="change-code" label={m.code} value={s.code} onChange={(v) => setField('code', v.replace(/\D/g, ''))} error={errors.code} inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
          </div>
          {s.notice && <p className="notice" role="status">{problemText(messages, { key: s.notice })}</p>}
        </>
      )}
      <PasswordInput id="change-password" label={c.newPassword} value={s.password} onChange={(v) => setField('password', v)} error={errors.password} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      <p className="hint" style={{ marginTop: -8, marginBottom: 14 }}>{c.ruleHint}</p>
      <PasswordInput id="change-confirm" label={c.confirmPassword} value={s.confirm} onChange={(v) => setField('confirm', v)} error={errors.confirm} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      {errors.form && <p className="error" role="alert">{errors.form}</p>}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy ? c.submitting : c.submit}
      </button>
    </form>
  );
}
