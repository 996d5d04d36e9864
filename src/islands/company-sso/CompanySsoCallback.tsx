import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { $companySso, isCodeSentNotice, sendLinkCode, setLinkCode, submitLink, takeCallback } from '../../stores/company-sso';
import { $dialog, closeDialog } from '../../stores/dialog';
import { BackToLogin, CodeStatus, ReturnProblem } from '../../ui/ProviderReturn';
import { TextField } from '../../ui/TextField';
import './company-sso-callback.css';

// A new person agrees to the terms after the sign-in (after-sign-in.ts asks): the modal loads only then.
const AgreementModal = lazy(() => import('../../ui/AgreementModal').then((m) => ({ default: m.AgreementModal })));

export interface CompanySsoCallbackProps {
  lang: Lang;
  messages: Pick<Messages, 'companySso' | 'errors' | 'signIn'>;
}

/**
 * /company_sso_callback: where a company's identity provider returns. A person already tied (or new) is signed in
 * and sent on by the login case; an existing account not yet tied proves itself once with a code to its e-mail.
 */
export default function CompanySsoCallback({ lang, messages }: CompanySsoCallbackProps) {
  const dialog = useStore($dialog);
  const agreement = dialog?.kind === 'agreement' && (
    <Suspense fallback={null}>
      <AgreementModal src={`/terms?lang=${lang}`} labels={messages.signIn.agreement} onConfirm={() => closeDialog(true)} onCancel={() => closeDialog()} />
    </Suspense>
  );
  return (
    <>
      <CallbackStep lang={lang} messages={messages} />
      {agreement}
    </>
  );
}

function CallbackStep({ lang, messages }: CompanySsoCallbackProps): ReactNode {
  const m = messages.companySso;
  const s = useStore($companySso);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => void takeCallback(lang), []);
  // The form's heading takes focus when it appears, so a screen reader hears what is asked.
  useEffect(() => {
    if (s.step === 'link') heading.current?.focus();
  }, [s.step]);

  if (s.step === 'checking' || s.step === 'redirecting') return <p className="notice" role="status">{m.checking}</p>;
  if (s.step === 'cancelled' || s.step === 'failed') {
    return <ReturnProblem title={m.title} text={s.step === 'cancelled' ? m.cancelled : problemText(messages, s.problem!)} backLabel={m.backToLogin} />;
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void submitLink();
  };
  const notice = isCodeSentNotice(s.problem);
  return (
    <form className="wechat-callback" onSubmit={submit} aria-labelledby="company-sso-link-title" noValidate>
      <h2 id="company-sso-link-title" ref={heading} tabIndex={-1} className="subsection-title">
        {m.linkTitle}
      </h2>
      <p className="hint">{format(m.linkLead, { email: s.email, company: s.company })}</p>
      <div className="company-sso-send">
        <button type="button" className="button secondary" disabled={s.busy} onClick={() => void sendLinkCode().then(() => isCodeSentNotice($companySso.get().problem) && document.getElementById('company-sso-code')?.focus())}>
          {s.sent ? messages.signIn.resend : m.sendCode}
        </button>
      </div>
      <TextField id="company-sso-code" label={m.code} value={s.code} onChange={setLinkCode} inputMode="numeric" autoComplete="one-time-code" maxLength={8} required />
      <CodeStatus sent={notice || (s.sent && !s.problem)} sentText={m.codeSent} problem={s.problem && !notice ? problemText(messages, s.problem) : null} />
      <button type="submit" className="button primary" disabled={s.busy || !s.sent || !s.code.trim()}>
        {m.submit}
      </button>
      <BackToLogin label={m.backToLogin} />
    </form>
  );
}
