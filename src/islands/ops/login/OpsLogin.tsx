import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemText, type Problem } from '../../../i18n/problem';
import { opsLoginForm, startOver, submitCode, submitPasskey, submitPassword } from '../../../stores/ops-login';
import { PasswordInput } from '../../../ui/PasswordInput';
import { AuthenticatorCodeField } from '../../../ui/AuthenticatorCodeField';
import { TextField } from '../../../ui/TextField';
import { SubmitForm } from '../../../ui/SubmitForm';
import { format } from '../../../i18n/format';

type OpsLoginMessages = Pick<Messages, 'ops' | 'errors' | 'signIn'>;

/** /ops/login: login and password, then the authenticator app's code. */
export default function OpsLogin({ messages }: { messages: OpsLoginMessages }) {
  const m = messages.ops.login;
  const v = useStore(opsLoginForm.$values);
  const e = useStore(opsLoginForm.$errors);
  const text = (p: Problem | undefined) => (p ? problemText(messages, p) : undefined);
  const codeHeading = useRef<HTMLHeadingElement>(null);
  const signedOut = typeof location !== 'undefined' && new URLSearchParams(location.search).has('signedOut');

  // The second step's screen takes the focus to its heading, so a screen reader hears where it is.
  useEffect(() => {
    if (v.phase === 'code') codeHeading.current?.focus();
  }, [v.phase]);

  const formError = text(e.form);
  return (
    <div className="ops-login" data-phase={v.phase}>
      <div role="status" aria-live="polite">
        {signedOut && v.phase === 'password' && !formError && <p className="notice">{m.signedOut}</p>}
      </div>
      {v.phase === 'password' ? (
        <SubmitForm onSend={submitPassword} error={formError} busy={v.busy} submitLabel={m.next}>
          <TextField
            id="ops-login"
            label={m.loginLabel}
            value={v.login}
            onChange={(value) => opsLoginForm.set('login', value)}
            error={text(e.login)}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
          <PasswordInput
            id="ops-password"
            label={m.passwordLabel}
            value={v.password}
            onChange={(value) => opsLoginForm.set('password', value)}
            error={text(e.password)}
            autoComplete="current-password"
            showLabel={messages.signIn.showPassword}
            hideLabel={messages.signIn.hidePassword}
            required
          />
        </SubmitForm>
      ) : (
        <SubmitForm
          onSend={submitCode}
          error={formError}
          busy={v.busy}
          submitLabel={m.verify}
          actions={
            <>
              {v.passkey && (
                <button type="button" className="button secondary" disabled={v.busy} onClick={() => void submitPasskey()}>
                  {m.usePasskey}
                </button>
              )}
              <button type="button" className="button secondary" onClick={startOver}>
                {m.startOver}
              </button>
            </>
          }
        >
          <h2 className="section-title" tabIndex={-1} ref={codeHeading}>
            {m.codeTitle}
          </h2>
          <p>{m.codeIntro}</p>
          <AuthenticatorCodeField
            id="ops-code"
            label={m.codeLabel}
            value={v.code}
            onChange={(value) => opsLoginForm.set('code', value.replace(/\D/g, ''))}
            error={text(e.code)}
            hint={v.triesLeft >= 0 ? format(m.triesLeft, { count: v.triesLeft }) : undefined}
          />
        </SubmitForm>
      )}
    </div>
  );
}
