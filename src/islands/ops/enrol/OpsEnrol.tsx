import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Messages } from '../../../i18n';
import { problemText, type Problem } from '../../../i18n/problem';
import { OPS_LOGIN_PATH } from '../../../lib/routes';
import { finishEnrolment, openEnrolment, opsEnrolForm } from '../../../stores/ops-enrol';
import { PasswordInput } from '../../../ui/PasswordInput';
import { TextField } from '../../../ui/TextField';

type OpsEnrolMessages = Pick<Messages, 'ops' | 'errors' | 'signIn'>;

/** /ops/enrol#token: the operator sets their password and connects their authenticator app. */
export default function OpsEnrol({ messages }: { messages: OpsEnrolMessages }) {
  const m = messages.ops.enrol;
  const v = useStore(opsEnrolForm.$values);
  const e = useStore(opsEnrolForm.$errors);
  const text = (p: Problem | undefined) => (p ? problemText(messages, p) : undefined);

  useEffect(() => {
    void openEnrolment();
  }, []);

  const formError = text(e.form);
  if (v.phase === 'loading') return <p className="hint" role="status">…</p>;
  if (v.phase === 'dead') return <p className="error form-error" role="alert">{formError}</p>;
  if (v.phase === 'done') {
    return (
      <div role="status">
        <p className="notice">{m.done}</p>
        <p>
          <a className="button primary" href={OPS_LOGIN_PATH}>
            {m.signIn}
          </a>
        </p>
      </div>
    );
  }
  return (
    <form
      noValidate
      className="ops-enrol"
      onSubmit={(event) => {
        event.preventDefault();
        void finishEnrolment();
      }}
    >
      <p data-enrol-account>{m.intro.replace('{login}', v.login).replace('{name}', v.name)}</p>
      {/* The login, for password managers to file the new password under. */}
      <input type="text" name="username" autoComplete="username" value={v.login} readOnly hidden />
      <PasswordInput
        id="ops-enrol-password"
        label={m.passwordLabel}
        value={v.password}
        onChange={(value) => opsEnrolForm.set('password', value)}
        error={text(e.password)}
        autoComplete="new-password"
        showLabel={messages.signIn.showPassword}
        hideLabel={messages.signIn.hidePassword}
      />
      <PasswordInput
        id="ops-enrol-confirm"
        label={m.passwordConfirm}
        value={v.confirm}
        onChange={(value) => opsEnrolForm.set('confirm', value)}
        error={text(e.confirm)}
        autoComplete="new-password"
        showLabel={messages.signIn.showPassword}
        hideLabel={messages.signIn.hidePassword}
      />
      <p className="hint">{m.passwordHint}</p>
      <p>{m.scanIntro}</p>
      <div className="qr-code" role="img" aria-label={m.qrLabel} dangerouslySetInnerHTML={{ __html: v.qrSvg }} />
      <p>
        {m.secretLabel}: <code className="secret" data-enrol-secret>{v.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <TextField
        id="ops-enrol-code"
        label={m.codeLabel}
        value={v.code}
        onChange={(value) => opsEnrolForm.set('code', value.replace(/\D/g, ''))}
        error={text(e.code)}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        required
      />
      {formError && <p className="error form-error" role="alert">{formError}</p>}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={v.busy}>
          {m.finish}
        </button>
      </div>
    </form>
  );
}
