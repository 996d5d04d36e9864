import { useStore } from '@nanostores/react';
import { Suspense, useEffect, useRef, type FormEvent } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { $dialog } from '../../stores/dialog';
import { $wechat, isCodeSentNotice, sendPhoneCode, setWechatAgreed, setWechatArea, setWechatField, submitPhone, takeCallback } from '../../stores/wechat';
import { PhoneField } from '../../ui/PhoneField';
import { TextField } from '../../ui/TextField';
import { loadPhoneCodesLazily, SliderDialog } from '../shared/on-first-use';

interface WechatCallbackProps {
  lang: Lang;
  messages: Pick<Messages, 'wechat' | 'errors' | 'signIn'>;
  sliderLabels: Messages['signIn']['slider'] & { networkError: string };
}

/**
 * /wechat_callback: where WeChat and WeCom return after a scan. A known person is signed in and sent on by the
 * login case; a WeChat the portal does not know is tied to a phone with its code (registering a new number).
 */
export default function WechatCallback({ lang, messages, sliderLabels }: WechatCallbackProps) {
  const m = messages.wechat;
  const s = useStore($wechat);
  const dialog = useStore($dialog);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => void takeCallback(), []);
  // The form's heading takes focus when it appears, so a screen reader hears what is asked.
  useEffect(() => {
    if (s.step === 'phone' || s.step === 'failed' || s.step === 'cancelled') heading.current?.focus();
  }, [s.step]);

  const back = (
    <p className="link-sign-in-alt">
      <a href="/login">{m.backToLogin}</a>
    </p>
  );
  if (s.step === 'checking' || s.step === 'redirecting') return <p className="notice" role="status">{m.checking}</p>;
  // Which WeChat was tied (its nickname), so a person who scanned with the wrong one notices at once.
  if (s.step === 'bound') return <p className="notice" role="status">{format(s.nickname ? m.bound : m.boundUnnamed, { provider: m.providers[s.provider], name: s.nickname })}</p>;
  if (s.step === 'cancelled' || s.step === 'failed') {
    return (
      <div className="wechat-callback">
        <h2 ref={heading} tabIndex={-1} className="subsection-title">
          {m.panelTitle}
        </h2>
        <p className="error" role="alert">
          {s.step === 'cancelled' ? m.cancelled : problemText(messages, s.problem!)}
        </p>
        {back}
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void submitPhone();
  };
  const notice = isCodeSentNotice(s.problem);
  return (
    <form className="wechat-callback" onSubmit={submit} aria-labelledby="wechat-phone-title" noValidate>
      <h2 id="wechat-phone-title" ref={heading} tabIndex={-1} className="subsection-title">
        {s.provider === 'wecom' ? m.phoneTitleWecom : m.phoneTitle}
      </h2>
      <p className="hint">{format(m.phoneLead, { name: s.nickname || messages.wechat.providers[s.provider] })}</p>
      <PhoneField
        id="wechat-mobile"
        labels={{ phone: messages.signIn.phone, areaCode: messages.signIn.areaCode }}
        lang={lang}
        loadAreaCodes={loadPhoneCodesLazily}
        phone={s}
        onAreaChange={setWechatArea}
        onMobileChange={(v) => setWechatField('mobile', v)}
        required
      />
      <div className="form-actions">
        <button type="button" className="button secondary" disabled={s.busy || !s.mobile.trim()} onClick={() => void sendPhoneCode()}>
          {m.sendCode}
        </button>
      </div>
      <TextField id="wechat-code" label={m.code} value={s.code} onChange={(v) => setWechatField('code', v)} inputMode="numeric" autoComplete="one-time-code" maxLength={8} required />
      <div className="agreement">
        <label className="check">
          <input type="checkbox" checked={s.agreed} onChange={(event) => setWechatAgreed(event.target.checked)} />
          <span>
            {messages.signIn.agree}{' '}
            <a href="/terms" target="_blank" rel="noopener">
              {messages.signIn.terms}
            </a>{' '}
            {messages.signIn.and}{' '}
            <a href="/privacy" target="_blank" rel="noopener">
              {messages.signIn.privacy}
            </a>
          </span>
        </label>
      </div>
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{m.codeSent}</p>}
      </div>
      {s.problem && !notice && (
        <p className="error" role="alert">
          {problemText(messages, s.problem)}
        </p>
      )}
      <button type="submit" className="button primary" disabled={s.busy || !s.sent || !s.agreed || !s.code.trim()}>
        {m.submit}
      </button>
      {back}
      {dialog?.kind === 'slider' && (
        <Suspense fallback={null}>
          <SliderDialog scene={dialog.scene} subject={dialog.subject} labels={sliderLabels} />
        </Suspense>
      )}
    </form>
  );
}
