import { useEffect, useRef } from 'react';
import type { Messages } from '../../i18n';
import type { SmsDown } from '../../stores/sign-in';

interface SmsDownOfferProps {
  state: SmsDown;
  labels: Messages['signIn']['smsDown'];
  busy: boolean;
  /** Passkeys work in this browser: the form's passkey button is another way in. */
  passkeys: boolean;
  onEmailInstead: () => void;
  /** The e-mail tab of the code sign-in, which registers a new person by e-mail (issue 47). */
  onRegisterByEmail: () => void;
  /** The password sign-in; absent where the form has none (/register). */
  onPassword?: () => void;
}

/**
 * The way out when no SMS provider can send: plain words, then the code by e-mail (to the address of the
 * number's account, if it has one; the answer is the same either way) or another way in. Its heading takes focus
 * when it appears, so a keyboard or screen-reader user is where the choices are.
 */
export function SmsDownOffer({ state, labels, busy, passkeys, onEmailInstead, onRegisterByEmail, onPassword }: SmsDownOfferProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.step === 'offered') heading.current?.focus();
  }, [state.step]);
  return (
    <section className="sms-down" aria-labelledby="sms-down-title">
      <h2 id="sms-down-title" className="sms-down-title" tabIndex={-1} ref={heading}>
        {labels.title}
      </h2>
      <p>{labels.text}</p>
      {state.step === 'emailSent' ? (
        <p className="notice" role="status">
          {labels.emailSent}
        </p>
      ) : (
        <>
          <button type="button" className="button secondary" disabled={busy} aria-describedby="sms-down-email-hint" onClick={onEmailInstead}>
            {labels.emailInstead}
          </button>
          <p id="sms-down-email-hint" className="hint">
            {labels.emailHint}
          </p>
        </>
      )}
      {onPassword && (
        <button type="button" className="button secondary" disabled={busy} onClick={onPassword}>
          {labels.password}
        </button>
      )}
      {passkeys && <p className="hint">{labels.passkeyHint}</p>}
      {/* True for everyone, so it tells no one whether this number has an account: a new person's way in. */}
      <p className="sms-down-new">
        {labels.newHere}{' '}
        <button type="button" className="text-button" disabled={busy} onClick={onRegisterByEmail}>
          {labels.registerByEmail}
        </button>
      </p>
    </section>
  );
}
