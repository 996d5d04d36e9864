import { useStore } from '@nanostores/react';
import { Suspense, useEffect, useState } from 'react';
import type { Lang } from '../../lib/lang';
import { $dialog, closeDialog } from '../../stores/dialog';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import { $reset, $resetCooldownUntil, $resetErrors, initPasswordReset, sendCode, setArea, setField, submit, switchChannel, type Channel } from '../../stores/password-reset';
import { CodeButton } from '../../ui/CodeButton';
import { PasswordInput } from '../../ui/PasswordInput';
import { PhoneField } from '../../ui/PhoneField';
import { loadPhoneCodesLazily, SliderDialog } from '../shared/on-first-use';
import { useProblems } from '../shared/use-problems';
import { TabList, tabPanelProps } from '../../ui/TabList';
import { TextField } from '../../ui/TextField';

interface PasswordResetProps {
  lang: Lang;
  /** /navigator_forget: the partner variant leads back to /navigator_login. */
  partner: boolean;
  messages: Pick<Messages, 'reset' | 'signIn' | 'validation' | 'errors' | 'common'>;
}

/** /forget and /navigator_forget: a code proves the phone or e-mail, then a new password twice. */
export default function PasswordReset({ lang, partner, messages }: PasswordResetProps) {
  const m = messages.signIn;
  const r = messages.reset;
  const s = useStore($reset);
  const errors = useProblems($resetErrors, messages);
  const dialog = useStore($dialog);
  const cooldownUntil = useStore($resetCooldownUntil);
  const loginPath = partner ? '/navigator_login' : '/login';
  const backLabel = partner ? r.backToPartnerLogin : messages.common.backToLogin;
  // The area-code list, the gateway calls and their schemas load with the form's first focus or touch.
  const [prepared, setPrepared] = useState(false);
  const prepare = () => setPrepared(true);

  useEffect(() => {
    initPasswordReset({ loginPath });
  }, [loginPath]);

  if (s.step === 'done') {
    return (
      <div className="reset-done">
        <p className="notice" role="status">{r.done}</p>
        <a className="button primary" href={loginPath}>
          {backLabel}
        </a>
      </div>
    );
  }

  return (
    <form
      className="password-reset"
      noValidate
      onFocus={prepare}
      onPointerEnter={prepare}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TabList<Channel> name="reset-channel" label={m.tabs.channelLabel} className="subtab" items={[['phone', m.tabs.phone], ['email', m.tabs.email]]} current={s.channel} onSelect={(channel) => switchChannel(channel)} />
      <div {...tabPanelProps('reset-channel', s.channel, false)}>
        {s.channel === 'phone' ? (
          <PhoneField id="reset-mobile" labels={m} lang={lang} loadAreaCodes={prepared ? loadPhoneCodesLazily : null} phone={s} error={errors.mobile} onAreaChange={setArea} onMobileChange={(v) => setField('mobile', v)} />
        ) : (
          <TextField id="reset-email" label={m.email} type="email" inputMode="email" autoComplete="username" value={s.email} onChange={(v) => setField('email', v)} error={errors.email} maxLength={254} />
        )}
      </div>
      <div className="code-row">
        <CodeButton cooldownUntil={cooldownUntil} sentBefore={cooldownUntil > 0} busy={s.busy} labels={m} onClick={() => void sendCode()} />
        <TextField id="reset-code" label={m.code} value={s.code} onChange={(v) => setField('code', v.replace(/\D/g, ''))} error={errors.code} inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
      </div>
      {s.notice && <p className="notice" role="status">{problemText(messages, { key: s.notice })}</p>}
      <PasswordInput id="reset-password" label={r.newPassword} value={s.password} onChange={(v) => setField('password', v)} error={errors.password} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      <p className="hint" style={{ marginTop: -8, marginBottom: 14 }}>{r.ruleHint}</p>
      <PasswordInput id="reset-confirm" label={r.confirmPassword} value={s.confirm} onChange={(v) => setField('confirm', v)} error={errors.confirm} autoComplete="new-password" showLabel={m.showPassword} hideLabel={m.hidePassword} />
      {errors.form && <p className="error" role="alert">{errors.form}</p>}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy ? r.submitting : r.submit}
      </button>
      <nav className="links">
        <a href={loginPath}>{backLabel}</a>
      </nav>

      <Suspense fallback={null}>
        {dialog?.kind === 'slider' && (
          <SliderDialog scene={dialog.scene} subject={dialog.subject} labels={{ ...m.slider, networkError: messages.errors.network }} otherWays={[{ label: m.slider.useEmail, choose: () => switchChannel('email') }]} />
        )}
      </Suspense>
    </form>
  );
}
