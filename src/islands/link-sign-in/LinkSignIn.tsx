import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { $dialog, closeDialog } from '../../stores/dialog';
import type { Messages } from '../../i18n';
import { $linkErrors, $linkSignIn, askAgain, hasLink, initLinkSignIn, sendLink, setEmail, signInWithLink, type LinkKind } from '../../stores/link-sign-in';
import { useProblems } from '../shared/use-problems';
import type { Lang } from '../../lib/lang';
import { TextField } from '../../ui/TextField';
import { format } from '../../i18n/format';

// Only an account that has not yet agreed sees the agreement: it loads when first opened (the page's JS budget).
const AgreementModal = lazy(() => import('../../ui/AgreementModal').then((m) => ({ default: m.AgreementModal })));

interface LinkSignInProps {
  lang: Lang;
  kind: LinkKind;
  messages: Pick<Messages, 'linkSignIn' | 'signIn' | 'validation' | 'errors'>;
}

/** /pass_email_login (kind 'pass') and /share_login (kind 'share'): sign in with a one-time link. */
export default function LinkSignIn({ lang, kind, messages }: LinkSignInProps) {
  const m = messages.linkSignIn;
  const s = useStore($linkSignIn);
  const dialog = useStore($dialog);

  const errors = useProblems($linkErrors, messages);
  useEffect(() => initLinkSignIn(kind), [kind]);

  const formError = errors.form && (
    <p className="error form-error" role="alert">
      {errors.form}
    </p>
  );
  const toLogin = (
    <p className="link-sign-in-alt">
      <a href="/login">{m.toLogin}</a>
    </p>
  );

  if (s.phase === 'redirecting') {
    return (
      <>
        <p className="notice redirecting" role="status">{m.redirecting}</p>
        {dialog?.kind === 'agreement' && (
          <Suspense fallback={null}>
            <AgreementModal src={`/terms?lang=${lang}`} labels={messages.signIn.agreement} onConfirm={() => closeDialog(true)} onCancel={() => closeDialog()} />
          </Suspense>
        )}
      </>
    );
  }

  if (s.phase === 'confirm') {
    return (
      <div className="link-sign-in">
        <p>{kind === 'pass' ? m.confirmPass : m.confirmShare}</p>
        {formError}
        {hasLink() && (
          <button type="button" className="button primary" disabled={s.busy} onClick={() => void signInWithLink()}>
            {s.busy ? m.signingIn : m.signIn}
          </button>
        )}
        {kind === 'pass' && errors.form ? (
          <p className="link-sign-in-alt">
            <button type="button" className="text-button" onClick={askAgain}>{m.askNewPass}</button>
          </p>
        ) : (
          toLogin
        )}
      </div>
    );
  }

  if (s.phase === 'no-link') {
    return (
      <div className="link-sign-in">
        {formError}
        <p>{m.noShareLink}</p>
        {toLogin}
      </div>
    );
  }

  if (s.phase === 'sent') {
    return (
      <div className="link-sign-in">
        <p className="notice" role="status">{format(m.sent, { email: s.sentTo })}</p>
        <p className="hint">{m.noAccountHint}</p>
        <p className="link-sign-in-alt">
          <button type="button" className="text-button" onClick={askAgain}>{m.sendAgain}</button>
        </p>
        {toLogin}
      </div>
    );
  }

  return (
    <form
      className="link-sign-in"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void sendLink();
      }}
    >
      <TextField
        id="pass-email"
        type="email"
        inputMode="email"
        autoComplete="email"
        label={m.emailLabel}
        value={s.email}
        onChange={setEmail}
        error={errors.email}
        hint={m.requestHint}
        maxLength={254}
      />
      {formError}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy ? m.sending : m.send}
      </button>
      {toLogin}
    </form>
  );
}
