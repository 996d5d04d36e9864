import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Messages } from '../../i18n';
import { $changePassword, $changePasswordErrors, initChangePassword, setField, submit } from '../../stores/change-password';
import { PasswordInput } from '../../ui/PasswordInput';
import { StepUpSlot } from '../shared/StepUpSlot';
import { useProblems } from '../shared/use-problems';

interface ChangePasswordProps {
  messages: Pick<Messages, 'changePassword' | 'signIn' | 'validation' | 'errors' | 'stepUp'>;
}

/**
 * /change_password: the current password (when the account has one) and the new one twice, then back to the user center or on by the login case. A session
 * without a fresh proof of the person is asked to confirm it's them first (StepUpDialog).
 */
export default function ChangePassword({ messages }: ChangePasswordProps) {
  const m = messages.signIn;
  const c = messages.changePassword;
  const s = useStore($changePassword);
  const errors = useProblems($changePasswordErrors, messages);

  useEffect(() => void initChangePassword(), []);
  // The page's heading and lead are the shell's ("Change password"); an account with none sets its first one.
  useEffect(() => {
    if (s.hasPassword) return;
    const heading = document.getElementById('page-title');
    if (heading) heading.textContent = c.setTitle;
    const lead = heading?.parentElement?.querySelector('.lead');
    if (lead) lead.textContent = c.setLead;
    document.title = document.title.replace(/^[^·]*·/, `${c.setTitle} ·`);
  }, [s.hasPassword, c]);

  if (s.step === 'done') return <p className="notice redirecting" role="status">{s.hasPassword ? c.done : c.setDone}</p>;
  if (s.forced === 'loading') {
    return errors.form ? <p className="error" role="alert">{errors.form}</p> : <div className="spinner" aria-hidden="true" />;
  }
  return (
    <>
    <form
      className="change-password"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {s.hasPassword && (
        <PasswordInput id="change-current" label={c.currentPassword} value={s.current} onChange={(v) => setField('current', v)} error={errors.current} autoComplete="current-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      )}
      <PasswordInput id="change-password" label={c.newPassword} value={s.password} onChange={(v) => setField('password', v)} error={errors.password} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      <p className="hint" style={{ marginTop: -8, marginBottom: 14 }}>{c.ruleHint}</p>
      <PasswordInput id="change-confirm" label={c.confirmPassword} value={s.confirm} onChange={(v) => setField('confirm', v)} error={errors.confirm} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      {errors.form && <p className="error" role="alert">{errors.form}</p>}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy ? c.submitting : s.hasPassword ? c.submit : c.setSubmit}
      </button>
      {/* A change the person chose may be left; the one the sign-in demanded may not. */}
      {!s.forced && (
        <p className="form-footer-link">
          <a href="/user_center">{c.backToUserCenter}</a>
        </p>
      )}
    </form>
    {/* Outside the form: the dialog's own forms must not submit this one. */}
    <StepUpSlot messages={messages} />
    </>
  );
}
