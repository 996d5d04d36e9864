import { useStore } from '@nanostores/react';
import { Suspense, useEffect, useRef, type FormEvent } from 'react';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import { $dialog } from '../../stores/dialog';
import { $wechat, isCodeSentNotice, sendPhoneCode, setWechatAgreed, setWechatArea, setWechatField, submitPhone } from '../../stores/wechat';
import { CodeButton } from '../../ui/CodeButton';
import { PhoneField } from '../../ui/PhoneField';
import { BackToLogin, CodeStatus } from '../../ui/ProviderReturn';
import { TextField } from '../../ui/TextField';
import { loadPhoneCodesLazily, SliderDialog } from '../shared/on-first-use';
import type { WechatCallbackProps } from './WechatCallback';

/** /wechat_callback's form for a WeChat the portal does not know: the phone number and its code tie the two. */
export default function WechatPhoneForm({ lang, messages, sliderLabels }: WechatCallbackProps) {
  const m = messages.wechat;
  const s = useStore($wechat);
  const dialog = useStore($dialog);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form's heading takes focus when it appears, so a screen reader hears what is asked.
  useEffect(() => heading.current?.focus(), []);

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
        {/* Counts down the wait before another code, as the sign-in form's does (issue 47). */}
        <CodeButton
          cooldownUntil={s.cooldownUntil}
          sentBefore={s.sent}
          busy={s.busy || !s.mobile.trim()}
          labels={{ getCode: m.sendCode, resend: messages.signIn.resend, resendIn: messages.signIn.resendIn }}
          onClick={() => void sendPhoneCode().then(() => isCodeSentNotice($wechat.get().problem) && document.getElementById('wechat-code')?.focus())}
        />
      </div>
      <TextField id="wechat-code" label={m.code} value={s.code} onChange={(v) => setWechatField('code', v)} inputMode="numeric" autoComplete="one-time-code" maxLength={8} required />
      <div className="agreement">
        <label className="check">
          <input type="checkbox" checked={s.agreed} onChange={(event) => setWechatAgreed(event.target.checked)} />
          <span>
            {messages.signIn.agree}{messages.signIn.linkGap}
            <a href="/terms" target="_blank" rel="noopener">
              {messages.signIn.terms}
            </a>{messages.signIn.linkGap}
            {messages.signIn.and}{messages.signIn.linkGap}
            <a href="/privacy" target="_blank" rel="noopener">
              {messages.signIn.privacy}
            </a>
          </span>
        </label>
      </div>
      <CodeStatus sent={notice || (s.sent && !s.problem)} sentText={m.codeSent} problem={s.problem && !notice ? problemText(messages, s.problem) : null} />
      <button type="submit" className="button primary" disabled={s.busy || !s.sent || !s.agreed || !s.code.trim()}>
        {m.submit}
      </button>
      <BackToLogin label={m.backToLogin} />
      {dialog?.kind === 'slider' && (
        <Suspense fallback={null}>
          <SliderDialog scene={dialog.scene} subject={dialog.subject} labels={sliderLabels} />
        </Suspense>
      )}
    </form>
  );
}
