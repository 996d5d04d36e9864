import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { twoStepApi } from '../../api/two-step';
import type { OwedStepAnswer } from '../../schemas/two-step';
import type { Messages } from '../../i18n';
import type { LoginAnswer } from '../../schemas/auth';
import { $passkeyOffer, $secondStep, $secondStepErrors, offerPasskey, setCode, setTrust, signInEnded, startSecondStep, switchKind, verify, verifyWithPasskey } from '../../stores/second-step';
import type { NewDeviceNotice } from '../../schemas/sign-in-answers';
import { format } from '../../i18n/format';
import { TextField } from '../../ui/TextField';
import { useProblems } from '../shared/use-problems';

export interface SecondStepProps {
  messages: Pick<Messages, 'twoStep' | 'errors'>;
  /** Goes on as after a first factor without two-step (terms, main company, login case). */
  onPassed: (answer: LoginAnswer) => Promise<unknown>;
  /** Back to the first factor (the challenge expired or ran out of tries). */
  onStartOver: () => void;
  /** This site is a passkey origin (/login, not the partner sign-in): offer a passkey when the person has one. */
  passkeys?: boolean;
  /** The step owed is the new-device challenge: the code went to this (masked) address or number. */
  newDevice?: NewDeviceNotice | null;
}

/**
 * The second step of a sign-in: a code from the authenticator app, or a recovery code, or (with `passkeys`, for
 * a person who has one) a passkey. Loaded on demand by /login and the partner sign-in when a first factor
 * answers `secondStep`.
 */
export default function SecondStep({ messages, onPassed, onStartOver, passkeys = false, newDevice: answered = null }: SecondStepProps) {
  const m = messages.twoStep;
  const s = useStore($secondStep);
  // What the challenge itself says (issue 44): the new-device challenge of a hand-off, which reached this page without
  // an answer, and whether "Trust this device" may be offered.
  const [owed, setOwed] = useState<OwedStepAnswer | null>(null);
  const newDevice = answered ?? owed?.newDevice ?? null;
  const trustable = owed?.trustable === true;
  const passkey = useStore($passkeyOffer);
  const errors = useProblems($secondStepErrors, messages);
  const heading = useRef<HTMLHeadingElement>(null);
  const ended = errors.form !== undefined && signInEnded();

  // The screen replaces the form: focus moves to its heading so a screen reader announces it.
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => startSecondStep(newDevice !== null), [newDevice]);
  useEffect(() => {
    void twoStepApi.owed().then((answer) => answer.ok && setOwed(answer.data));
  }, []);
  useEffect(() => {
    if (passkeys) void offerPasskey();
  }, [passkeys]);

  const app = s.kind === 'totp';
  const sent = s.kind === 'code';
  return (
    <form
      className="sign-in second-step"
      noValidate
      aria-labelledby="second-step-title"
      onSubmit={(event) => {
        event.preventDefault();
        void verify(onPassed);
      }}
    >
      <h2 id="second-step-title" className="mode-title" tabIndex={-1} ref={heading}>
        {newDevice ? m.newDeviceTitle : m.title}
      </h2>
      <p className="hint">{newDevice ? format(m.newDeviceIntro, { to: newDevice.to }) : app ? m.intro : m.recoveryIntro}</p>
      <TextField
        key={s.kind}
        id="second-step-code"
        label={sent ? m.newDeviceLabel : app ? m.codeLabel : m.recoveryLabel}
        value={s.code}
        onChange={setCode}
        error={errors.code}
        autoComplete="one-time-code"
        inputMode={app || sent ? 'numeric' : 'text'}
        autoCapitalize={app || sent ? undefined : 'characters'}
        spellCheck={false}
        maxLength={sent ? 8 : app ? 6 : 16}
        placeholder={sent ? undefined : app ? '123456' : 'ABCDE-23456'}
        required
      />
      {trustable && !ended && (
        <div className="field checkbox-field">
          <label htmlFor="second-step-trust">
            <input id="second-step-trust" type="checkbox" checked={s.trust} onChange={(event) => setTrust(event.target.checked)} aria-describedby="second-step-trust-hint" />{' '}
            {m.trustDevice}
          </label>
          <p className="hint" id="second-step-trust-hint">
            {m.trustDeviceHint}
          </p>
        </div>
      )}
      {errors.form && (
        <p className="error form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        {ended ? (
          <button type="button" className="button primary" onClick={onStartOver}>
            {m.startOver}
          </button>
        ) : (
          <button type="submit" className="button primary" disabled={s.busy}>
            {s.busy ? m.verifying : m.verify}
          </button>
        )}
        {!newDevice && (
          <button type="button" className="text-button" onClick={switchKind}>
            {app ? m.useRecovery : m.useApp}
          </button>
        )}
      </div>
      {passkey !== 'none' && !ended && (
        <div className="second-step-passkey">
          <p className="hint" id="second-step-passkey-hint">
            {m.passkeyHint}
          </p>
          <button
            type="button"
            className="button secondary"
            aria-describedby="second-step-passkey-hint"
            disabled={s.busy}
            onClick={() => void verifyWithPasskey(onPassed)}
          >
            {m.usePasskey}
          </button>
          <p role="status" className="hint">
            {passkey === 'asking' ? m.passkeyWaiting : ''}
          </p>
        </div>
      )}
    </form>
  );
}
