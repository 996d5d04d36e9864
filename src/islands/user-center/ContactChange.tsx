import { useStore } from '@nanostores/react';
import { Suspense, useEffect, useRef, type FormEvent } from 'react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { $dialog } from '../../stores/dialog';
import {
  $contactChange,
  closeContactChange,
  openContactChange,
  saveContactChange,
  sendContactCode,
  setContactArea,
  setContactField,
} from '../../stores/data-rights';
import { $userCenter } from '../../stores/user-center';
import { EmailAddress } from '../../ui/EmailAddress';
import { PhoneField } from '../../ui/PhoneField';
import { TextField } from '../../ui/TextField';
import { loadPhoneCodesLazily, SliderDialog } from '../shared/on-first-use';

interface ContactChangeProps {
  lang: Lang;
  messages: Pick<Messages, 'dataRights' | 'errors'>;
  sliderLabels: Messages['signIn']['slider'] & { networkError: string };
}

/**
 * Correct the mobile number or e-mail address: the new one gets a code (the ordinary code calls; the human check
 * first for a phone), the change takes a fresh proof, and the old address is told.
 */
export function ContactChange({ lang, messages, sliderLabels }: ContactChangeProps) {
  const m = messages.dataRights;
  const s = useStore($contactChange);
  const dialog = useStore($dialog);
  const me = useStore($userCenter).me;
  const done = useRef<HTMLParagraphElement>(null);
  // The confirmation is where the person is: focus moves to it, so it is in view and read out.
  useEffect(() => {
    if (s.changed) done.current?.focus();
  }, [s.changed]);
  const phone = me?.registerMobile ? `${me.userPhoneCode ?? ''} ${me.registerMobile}`.trim() : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void saveContactChange();
  };
  // A notice of the form (the code was sent) is polite; a refusal is an alert.
  const said = s.error && problemText(messages, s.error);
  const isNotice = s.error !== null && 'key' in s.error && s.error.key === 'dataRights.codeSent';
  return (
    <div className="contact-change">
      <h3 id="contact-title" className="subsection-title">{m.contactTitle}</h3>
      <p className="hint">{m.contactHint}</p>
      {s.kind === null ? (
        <>
          {/* What the account names now, beside the way to change it (issue 47). */}
          <dl className="contact-now">
            <div>
              <dt>{m.currentEmail}</dt>
              <dd>
                <span className="contact-value">{me?.businessEmails ? <EmailAddress value={me.businessEmails} /> : m.noneSet}</span>
                <button type="button" className="button secondary" onClick={() => openContactChange('email')}>
                  {m.changeEmail}
                </button>
              </dd>
            </div>
            <div>
              <dt>{m.currentPhone}</dt>
              <dd>
                <span className="contact-value">{phone ?? m.noneSet}</span>
                <button type="button" className="button secondary" onClick={() => openContactChange('phone')}>
                  {m.changePhone}
                </button>
              </dd>
            </div>
          </dl>
          <div className="live-region" role="status" aria-live="polite">
            {s.changed && (
              <p className="notice" tabIndex={-1} ref={done}>
                {m.contactChanged}
              </p>
            )}
          </div>
        </>
      ) : (
        <form onSubmit={submit} aria-labelledby="contact-title" noValidate>
          {s.kind === 'email' ? (
            <TextField id="contact-email" type="email" label={m.newEmail} value={s.email} onChange={(v) => setContactField('email', v)} autoComplete="email" maxLength={254} required />
          ) : (
            <PhoneField
              id="contact-mobile"
              labels={{ phone: m.newPhone, areaCode: m.areaCode }}
              lang={lang}
              loadAreaCodes={loadPhoneCodesLazily}
              phone={s}
              onAreaChange={setContactArea}
              onMobileChange={(v) => setContactField('mobile', v)}
              required
            />
          )}
          <div className="form-actions">
            <button type="button" className="button secondary" disabled={s.busy} onClick={() => void sendContactCode()}>
              {m.sendCode}
            </button>
          </div>
          <TextField id="contact-code" label={m.code} value={s.code} onChange={(v) => setContactField('code', v)} inputMode="numeric" autoComplete="one-time-code" maxLength={8} required />
          <div className="live-region" role="status" aria-live="polite">
            {said && isNotice && <p className="notice">{said}</p>}
          </div>
          {said && !isNotice && <p className="error" role="alert">{said}</p>}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={s.busy || !s.sent}>
              {m.saveContact}
            </button>
            <button type="button" className="button secondary" onClick={closeContactChange}>
              {m.cancel}
            </button>
          </div>
        </form>
      )}
      {dialog?.kind === 'slider' && (
        <Suspense fallback={null}>
          <SliderDialog scene={dialog.scene} subject={dialog.subject} labels={sliderLabels} />
        </Suspense>
      )}
    </div>
  );
}
