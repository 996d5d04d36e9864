import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText, type Problem } from '../../../i18n/problem';
import { OPS_LOGIN_PATH } from '../../../lib/routes';
import { finishEnrolment, openEnrolment, opsEnrolForm } from '../../../stores/ops-enrol';
import { EmailAddress } from '../../../ui/EmailAddress';
import { PasswordInput } from '../../../ui/PasswordInput';
import { AuthenticatorCodeField } from '../../../ui/AuthenticatorCodeField';
import { SubmitForm } from '../../../ui/SubmitForm';
import { format } from '../../../i18n/format';

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
  // The login sits inside the sentence, as an address that breaks after its "@" on a narrow screen.
  const [beforeLogin, afterLogin = ''] = format(m.intro, { name: v.name }).split('{login}');
  return (
    <SubmitForm className="ops-enrol" onSend={finishEnrolment} error={formError} busy={v.busy} submitLabel={m.finish}>
      <p data-enrol-account>
        {beforeLogin}
        <EmailAddress value={v.login} />
        {afterLogin}
      </p>
      {/* The login, for password managers to file the new password under. */}
      <input type="text" name="username" autoComplete="username" value={v.login} readOnly hidden />
      {(['password', 'confirm'] as const).map((field) => (
        <PasswordInput
          key={field}
          id={`ops-enrol-${field}`}
          label={field === 'password' ? m.passwordLabel : m.passwordConfirm}
          value={v[field]}
          onChange={(value) => opsEnrolForm.set(field, value)}
          error={text(e[field])}
          autoComplete="new-password"
          showLabel={messages.signIn.showPassword}
          hideLabel={messages.signIn.hidePassword}
          required
        />
      ))}
      <p className="hint">{m.passwordHint}</p>
      <p>{m.scanIntro}</p>
      <div className="qr-code" role="img" aria-label={m.qrLabel} dangerouslySetInnerHTML={{ __html: v.qrSvg }} />
      <p>
        {m.secretLabel} <code className="secret" data-enrol-secret>{v.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <AuthenticatorCodeField
        id="ops-enrol-code"
        label={m.codeLabel}
        value={v.code}
        onChange={(value) => opsEnrolForm.set('code', value.replace(/\D/g, ''))}
        error={text(e.code)}
      />
    </SubmitForm>
  );
}
