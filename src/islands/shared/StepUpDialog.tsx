import { useStore } from '@nanostores/react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import { canUsePasskeys } from '../../lib/webauthn-support';
import { $stepUp, cancelStepUp, proveWithPasskey, sendStepUpCode, setStepUpField, submitFirstStep, submitSecondStep } from '../../stores/step-up';
import { CodeButton } from '../../ui/CodeButton';
import { Modal } from '../../ui/Modal';
import { PasswordInput } from '../../ui/PasswordInput';
import { TextField } from '../../ui/TextField';

type StepUpMessages = Pick<Messages, 'stepUp' | 'errors'>;

/**
 * "Confirm it's you" (stores/step-up.ts): opened by a sensitive change the gateway refused for want of a fresh
 * proof. A native modal dialog (focus stays inside, Escape cancels, titled by its heading): the password or a code
 * sent to the account, then the authenticator app or a recovery code when two-step is on; or a passkey alone.
 */
export function StepUpDialog({ messages }: { messages: StepUpMessages }) {
  const m = messages.stepUp;
  const s = useStore($stepUp);
  // Shown once it knows what to ask, so the dialog opens with focus in its first field.
  if (s.phase === 'closed' || s.phase === 'loading') return null;

  const error = s.error ? problemText(messages, s.error) : undefined;
  const passkey = s.start?.passkey && canUsePasskeys();
  const passkeyButton = passkey && (
    <div className="step-up-passkey">
      <p className="hint">{s.phase === 'second' ? m.passkeyInstead : m.passkeyAlone}</p>
      <button type="button" className="button secondary" disabled={s.busy} onClick={() => void proveWithPasskey()}>
        {m.usePasskey}
      </button>
    </div>
  );
  const actions = (submit: string) => (
    <div className="modal-actions">
      <button type="button" className="button secondary" onClick={cancelStepUp}>
        {m.cancel}
      </button>
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy && !s.waitingForPasskey ? m.checking : submit}
      </button>
    </div>
  );

  return (
    <Modal title={m.title} onCancel={cancelStepUp}>
      <div className="step-up" data-step-up={s.phase}>
        <div className="live-region" role="status" aria-live="polite">
          {s.notice && <p className="notice">{problemText(messages, s.notice)}</p>}
          {s.waitingForPasskey && <p className="hint">{m.passkeyWaiting}</p>}
        </div>

        {s.phase === 'first' && (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submitFirstStep();
            }}
          >
            <p>{s.start?.twoStep ? m.introTwoStep : s.method === 'code' ? m.introCode : m.intro}</p>
            {s.method === 'password' ? (
              <PasswordInput
                id="step-up-password"
                label={m.passwordLabel}
                value={s.password}
                onChange={(value) => setStepUpField('password', value)}
                autoComplete="current-password"
                showLabel={m.showPassword}
                hideLabel={m.hidePassword}
                error={error}
              />
            ) : (
              <>
                <p className="hint">{m.codeIntro.replace('{to}', s.start?.codeTo ?? '')}</p>
                <div className="code-row">
                  <CodeButton cooldownUntil={s.cooldownUntil} sentBefore={s.codeSent} busy={s.busy} labels={m} onClick={() => void sendStepUpCode()} />
                  <TextField
                    id="step-up-code"
                    label={m.codeLabel}
                    value={s.code}
                    onChange={(value) => setStepUpField('code', value.replace(/\D/g, ''))}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={8}
                    error={error}
                  />
                </div>
              </>
            )}
            {passkeyButton}
            {actions(m.continue)}
          </form>
        )}

        {s.phase === 'second' && (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submitSecondStep();
            }}
          >
            <p>{m.secondIntro}</p>
            <TextField
              id="step-up-second"
              label={m.secondLabel}
              value={s.secondCode}
              onChange={(value) => setStepUpField('secondCode', value)}
              autoComplete="one-time-code"
              spellCheck={false}
              maxLength={16}
              error={error}
              autoFocus
            />
            {passkeyButton}
            {actions(m.confirm)}
          </form>
        )}
      </div>
    </Modal>
  );
}
