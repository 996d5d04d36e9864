import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Lang } from '../../lib/lang';
import { meetsPasswordRule } from '../../schemas/auth-rules';
import { $dialog, closeDialog } from '../../stores/dialog';
import type { Messages } from '../../i18n';
import { $partnerErrors, $partnerSignIn, initPartnerSignIn, partnerSignedIn, partnerStartOver, setArea, setField, submit, verifySlider } from '../../stores/partner-sign-in';
import { PasswordInput } from '../../ui/PasswordInput';
import { PhoneField } from '../../ui/PhoneField';
import { AgreementModal, InsecurePasswordModal, loadPhoneCodesLazily, SliderDialog } from '../shared/on-first-use';
import { useProblems } from '../shared/use-problems';

// The second step (two-step verification) loads only when the password asks for it.
const SecondStep = lazy(() => import('../second-step/SecondStep'));

interface PartnerSignInProps {
  lang: Lang;
  messages: Pick<Messages, 'partner' | 'signIn' | 'validation' | 'errors' | 'twoStep'>;
}

/** /navigator_login (and `/` on the navigator host): phone-code selector, phone, password and slider. */
export default function PartnerSignIn({ lang, messages }: PartnerSignInProps) {
  const m = messages.signIn;
  const p = messages.partner;
  const s = useStore($partnerSignIn);
  const errors = useProblems($partnerErrors, messages);
  // The credentials hand-off of a person with two-step on arrives with the second step owed.
  useEffect(() => initPartnerSignIn(location.search), []);
  const dialog = useStore($dialog);
  // The area-code list, the gateway calls and their schemas load with the form's first focus or touch, not
  // with the page (as on /login).
  const [prepared, setPrepared] = useState(false);
  const prepare = () => setPrepared(true);

  if (s.redirecting) return <p className="notice redirecting" role="status">{m.redirecting}</p>;
  if (s.secondStep)
    return (
      <Suspense fallback={<p role="status">{m.redirecting}</p>}>
        <SecondStep messages={messages} onPassed={partnerSignedIn} onStartOver={partnerStartOver} newDevice={s.newDevice} />
      </Suspense>
    );
  const sliderPassed = s.sliderCheck !== null && s.sliderFor === `${s.callingCode}${s.mobile.replace(/[\s,，]/g, '')}`;

  return (
    <form
      className="sign-in partner-sign-in"
      noValidate
      onFocus={prepare}
      onPointerEnter={prepare}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {s.resetDone && <p className="notice" role="status">{m.resetDone}</p>}
      <PhoneField id="partner-mobile" labels={m} lang={lang} loadAreaCodes={prepared ? loadPhoneCodesLazily : null} phone={s} error={errors.mobile} onAreaChange={setArea} onMobileChange={(v) => setField('mobile', v)} />
      <PasswordInput
        id="partner-password"
        label={m.password}
        value={s.password}
        onChange={(v) => setField('password', v)}
        error={errors.password}
        autoComplete="current-password"
        showLabel={m.showPassword}
        hideLabel={m.hidePassword}
      />
      <div className="field">
        <span id="partner-slider-label" style={{ fontWeight: 600, fontSize: '.92rem' }}>
          {p.slider}
        </span>
        <button
          type="button"
          className="button secondary"
          aria-labelledby="partner-slider-label partner-slider-state"
          aria-describedby={errors.slider ? 'partner-slider-error' : undefined}
          disabled={s.busy || sliderPassed}
          onClick={() => void verifySlider()}
        >
          <span id="partner-slider-state">{sliderPassed ? `✓ ${p.sliderPassed}` : p.sliderStart}</span>
        </button>
        {errors.slider && (
          <p id="partner-slider-error" className="error" role="alert">
            {errors.slider}
          </p>
        )}
      </div>

      {errors.form && <p className="error" role="alert">{errors.form}</p>}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy && !dialog ? m.submitting : m.submit}
      </button>
      <p className="hint agreement">
        {m.agree}{m.linkGap}<a href="/terms" target="_blank" rel="noopener">{m.terms}</a>{m.linkGap}{m.and}{m.linkGap}<a href="/privacy" target="_blank" rel="noopener">{m.privacy}</a>
      </p>
      <nav className="links">
        <a href="/navigator_forget">{p.forgot}</a>
        <a href="/login">{m.platformLink}</a>
      </nav>

      <Suspense fallback={null}>
        {dialog?.kind === 'slider' && (
          <SliderDialog scene={dialog.scene} subject={dialog.subject} labels={{ ...m.slider, networkError: messages.errors.network }} />
        )}
        {dialog?.kind === 'insecure' && (
          <InsecurePasswordModal
            labels={{ ...m.insecure, show: m.showPassword, hide: m.hidePassword }}
            messages={{ required: messages.validation.passwordRequired, rule: messages.validation.passwordRule, mismatch: messages.validation.passwordMismatch }}
            meetsRule={meetsPasswordRule}
            onConfirm={(newPassword) => closeDialog({ newPassword })}
            onCancel={() => closeDialog()}
          />
        )}
        {dialog?.kind === 'agreement' && <AgreementModal src={`/terms?lang=${lang}`} labels={m.agreement} onConfirm={() => closeDialog(true)} onCancel={() => closeDialog()} />}
      </Suspense>
    </form>
  );
}
