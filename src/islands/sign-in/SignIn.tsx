import { sliderWays } from '../../lib/slider-ways';
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import { canUsePasskeys } from '../../lib/webauthn-support';
import { RETURN_PARAM, returnPath, SESSION_ENDED_MARK } from '../../lib/return-path';
import type { Lang } from '../../lib/lang';
import { meetsPasswordRule, NEW_USER_COMPANY_MAX } from '../../schemas/auth-rules';
import { $dialog, closeDialog } from '../../stores/dialog';
import {
  $codeCooldownUntil,
  $errors,
  $signIn,
  arrivedSignedIn,
  initSignIn,
  preloadSignIn,
  resumeExistingSession,
  secondStepPassed,
  sendCode,
  sendCodeByEmailInstead,
  startOver,
  setField,
  submit,
  setArea,
  switchTo,
  type Channel,
  type Mode,
} from '../../stores/sign-in';
import { CodeButton } from '../../ui/CodeButton';
import { PasswordInput } from '../../ui/PasswordInput';
import { PhoneField } from '../../ui/PhoneField';
import { TabList, tabPanelProps } from '../../ui/TabList';
import { TextField } from '../../ui/TextField';
import { useProblems } from '../shared/use-problems';
import { wechatMethodAsked } from '../../lib/wechat-start';
import type { WechatMethod, WechatMethods } from '../../schemas/wechat';

// The modals load when first opened: /login stays inside its JavaScript budget.
const AgreementModal = lazy(() =>
  import('../../ui/AgreementModal').then((m) => ({
    default: m.AgreementModal,
  })),
);
const InsecurePasswordModal = lazy(() =>
  import('../../ui/InsecurePasswordModal').then((m) => ({
    default: m.InsecurePasswordModal,
  })),
);
const NewUserModal = lazy(() => import('../../ui/NewUserModal').then((m) => ({ default: m.NewUserModal })));
// The second step (two-step verification) loads only when a first factor asks for it.
const SecondStep = lazy(() => import('../second-step/SecondStep'));
// WeChat's panel loads when the person opens it; until then /login holds only its button.
const WechatPanel = lazy(() => import('../wechat/WechatPanel'));
// "Continue with <company>" (issue 43): its code loads only once an e-mail address is typed.
const CompanySsoOffer = lazy(() => import('../company-sso/CompanySsoOffer'));
// The way out when no SMS provider can send: only after a send failed that way (issue 31).
const SmsDownOffer = lazy(() => import('./SmsDownOffer').then((m) => ({ default: m.SmsDownOffer })));
const SliderDialog = lazy(() => import('../shared/SliderDialog').then((m) => ({ default: m.SliderDialog })));
// The area-code list and its schema load with the form's first use (below), not with the page.
const loadPhoneCodesLazily = () => import('../../api/dictionaries').then((d) => d.loadPhoneCodes());
// Passkey sign-in (and @simplewebauthn/browser) loads on the button's click or the form's first use.
const loadPasskeys = () => import('../../stores/passkey-sign-in');

interface SignInProps {
  lang: Lang;
  messages: Pick<Messages, 'signIn' | 'validation' | 'errors' | 'twoStep'> & { passkeys?: Messages['passkeys']; wechat?: Messages['wechat']; companySso?: Messages['companySso'] };
  /** 'register' (the /register page): only the code sign-in (it also registers) by phone or e-mail, no password tab; links back to sign-in. */
  variant?: 'login' | 'register';
}

/**
 * Why the person is at sign-in, when the page did not say so itself (issue 33): sent from a page that needs a
 * session, their session ended on this device, and what a form kept for them. The ended mark is read once.
 */
function whyBackAtSignIn(words: Messages['signIn']['why']): string[] {
  const said: string[] = [];
  try {
    const ended = sessionStorage.getItem(SESSION_ENDED_MARK) === '1';
    sessionStorage.removeItem(SESSION_ENDED_MARK);
    const kept = Object.keys(sessionStorage).filter((key) => key.startsWith('keptForm:'));
    if (ended) said.push(words.ended);
    else if (returnPath(new URLSearchParams(location.search).get(RETURN_PARAM))) said.push(words.continue);
    if (kept.length) said.push(words.kept);
    if (kept.some((key) => key === 'keptForm:/create_account' || key === 'keptForm:/fill_account')) said.push(words.reattach);
  } catch {
    // Storage blocked: nothing to say beyond the form.
  }
  return said;
}

/** The /login screen: code and password sign-in by phone or e-mail, passkeys, and the chain login. */
export default function SignIn({ lang, messages, variant = 'login' }: SignInProps) {
  const m = messages.signIn;
  const register = variant === 'register';
  const s = useStore($signIn);
  const errors = useProblems($errors, messages);
  const dialog = useStore($dialog);
  const cooldownUntil = useStore($codeCooldownUntil);
  const [prepared, setPrepared] = useState(false);
  // Opened with a session: no form at all (not even for the first frame) while the login case decides the route.
  const [arriving, setArriving] = useState(arrivedSignedIn);
  const passkeys = !register && messages.passkeys && canUsePasskeys() ? messages.passkeys : null;
  const [why] = useState(() => (register ? [] : whyBackAtSignIn(m.why)));
  // WeChat: which methods are on and whether the button shows here (Chinese pages, .cn hosts, or a setting).
  // A bare fetch of JSON: no script loads for it until the person opens the panel.
  const [wechat, setWechat] = useState<WechatMethods | null>(null);
  const [wechatOpen, setWechatOpen] = useState(false);
  // Sent here from another host's /login (lib/wechat-start.ts): the panel opens and starts the method chosen there.
  const [wechatAsked, setWechatAsked] = useState<WechatMethod | null>(null);
  useEffect(() => {
    const asked = wechatMethodAsked(location.search);
    setWechatAsked(asked);
    if (asked) setWechatOpen(true);
  }, []);
  useEffect(() => {
    if (register || !messages.wechat) return;
    void fetch('/api/agg-web/wechat/methods')
      .then((res) => res.json())
      .then((body: { code?: string; data?: typeof wechat }) => setWechat(body.code === '0' ? (body.data ?? null) : null))
      .catch(() => undefined);
  }, [register, messages.wechat]);
  const wechatOn = wechat !== null && wechat.shown && (wechat.qr || wechat.mp || wechat.wecom);

  useEffect(() => {
    initSignIn({ chain: new URLSearchParams(location.search).get('channel') === 'britc' });
    if (register) switchTo('code');
    void resumeExistingSession().finally(() => setArriving(false));
  }, [messages]);

  // The area-code list, the gateway calls and their schemas load when the form is first focused, touched or
  // pointed at, not with the page: /login's first load stays small and its main thread free.
  const prepare = () => {
    if (prepared) return;
    setPrepared(true);
    preloadSignIn();
    // The browser's autofill may offer this site's passkeys on the e-mail field (conditional UI).
    if (passkeys) void loadPasskeys().then((p) => p.offerPasskeyAutofill());
  };

  const show = { show: m.showPassword, hide: m.hidePassword };

  const fields = (
    <>
      {s.mode === 'chain' ? (
        <TextField
          id="us-id"
          label={m.userId}
          value={s.usId}
          onChange={(v) => setField('usId', v)}
          error={errors.usId}
          autoComplete="username"
          maxLength={64}
        />
      ) : s.channel === 'phone' ? (
        <PhoneField
          id="mobile"
          labels={m}
          lang={lang}
          loadAreaCodes={prepared ? loadPhoneCodesLazily : null}
          phone={s}
          error={errors.mobile}
          onAreaChange={setArea}
          onMobileChange={(v) => setField('mobile', v)}
        />
      ) : (
        <TextField
          id="email"
          label={m.email}
          type="email"
          inputMode="email"
          // "webauthn": the autofill list offers passkeys too (the phone field keeps the phone number's autofill).
          autoComplete={passkeys ? 'username webauthn' : 'username'}
          value={s.email}
          onChange={(v) => setField('email', v)}
          error={errors.email}
          maxLength={254}
        />
      )}
      {s.channel === 'email' && s.mode !== 'chain' && !register && s.email.includes('@') && (
        <Suspense fallback={null}>
          <CompanySsoOffer email={s.email} lang={lang} messages={messages} />
        </Suspense>
      )}

      {s.mode === 'code' ? (
        // Get code comes before the code box, in the order a person uses them.
        <div className="code-row">
          <CodeButton
            cooldownUntil={cooldownUntil}
            sentBefore={cooldownUntil > 0}
            busy={s.busy}
            labels={m}
            // Once sent, focus goes to the code field: the button is disabled for the wait, and a closed dialog leaves focus nowhere.
            onClick={() => void sendCode().then(() => $signIn.get().notice && document.getElementById('code')?.focus())}
          />
          <TextField
            id="code"
            label={m.code}
            value={s.code}
            onChange={(v) => setField('code', v.replace(/\D/g, ''))}
            error={errors.code}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
          />
          {s.smsDown && s.channel === 'phone' && (
            <Suspense fallback={null}>
            <SmsDownOffer
              state={s.smsDown}
              labels={m.smsDown}
              busy={s.busy}
              passkeys={passkeys !== null}
              onEmailInstead={() => void sendCodeByEmailInstead().then(() => $signIn.get().smsDown?.step === 'emailSent' && document.getElementById('code')?.focus())}
              onRegisterByEmail={() => switchTo('code', 'email')}
              onPassword={register ? undefined : () => switchTo('password')}
            />
            </Suspense>
          )}
        </div>
      ) : (
        <PasswordInput
          id="password"
          label={m.password}
          value={s.password}
          onChange={(v) => setField('password', v)}
          error={errors.password}
          autoComplete="current-password"
          showLabel={show.show}
          hideLabel={show.hide}
        />
      )}

      {s.mode === 'password' && (
        <label className="check">
          <input type="checkbox" checked={s.remember} onChange={(e) => setField('remember', e.target.checked)} />
          {m.remember}
        </label>
      )}
    </>
  );

  // The same words next to the code sign-in's checkbox and, as plain text, under the password sign-in.
  const agreementText = (
    <>
      {m.agree}{m.linkGap}
      <a href="/terms" target="_blank" rel="noopener">
        {m.terms}
      </a>{m.linkGap}
      {m.and}{m.linkGap}
      <a href="/privacy" target="_blank" rel="noopener">
        {m.privacy}
      </a>
    </>
  );

  // Phone or e-mail. Registration offers only the code sign-in (which registers a new user), so no mode tabs.
  const channels = (
    <>
      <TabList<Channel>
        name="channel"
        label={m.tabs.channelLabel}
        className="subtab"
        items={[
          ['phone', m.tabs.phone],
          ['email', m.tabs.email],
        ]}
        current={s.channel}
        onSelect={(channel) => switchTo(s.mode, channel)}
      />
      <div {...tabPanelProps('channel', s.channel, false)}>{fields}</div>
    </>
  );

  if (s.secondStep && !s.redirecting)
    return (
      <Suspense fallback={<p role="status">{m.redirecting}</p>}>
        <SecondStep messages={messages} onPassed={secondStepPassed} onStartOver={startOver} passkeys={passkeys !== null} newDevice={s.newDevice} />
      </Suspense>
    );

  if (s.redirecting || arriving)
    return (
      <p className="notice redirecting" role="status">
        {m.redirecting}
      </p>
    );

  return (
    <form
      className="sign-in"
      noValidate
      onFocus={prepare}
      onPointerEnter={prepare}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {why.length > 0 && (
        // A div: a short bold sentence in a <p> reads to axe as a heading made of a paragraph (p-as-heading).
        <div className="notice" role="status">
          {why.join(lang === 'zh' ? '' : ' ')}
        </div>
      )}
      <p className="notice-banner">{m.usernameNotice}</p>
      {s.mode === 'chain' ? (
        <>
          <h2 className="mode-title">{m.tabs.chain}</h2>
          {fields}
        </>
      ) : register ? (
        channels
      ) : (
        <>
          <TabList<Mode>
            name="mode"
            label={m.tabs.modeLabel}
            className="tab"
            items={[
              ['code', m.tabs.code],
              ['password', m.tabs.password],
            ]}
            current={s.mode}
            onSelect={(mode) => switchTo(mode)}
          />
          <div {...tabPanelProps('mode', s.mode, false)}>{channels}</div>
        </>
      )}

      {/* The agreement is ticked before the sign-in button is reached. */}
      {s.mode === 'code' ? (
        <div className="agreement">
          <label className="check">
            <input
              type="checkbox"
              checked={s.agreed}
              aria-describedby={errors.agreed ? 'agreed-error' : undefined}
              onChange={(e) => setField('agreed', e.target.checked)}
            />
            <span>{agreementText}</span>
          </label>
          {errors.agreed && (
            <p id="agreed-error" className="error" role="alert">
              {errors.agreed}
            </p>
          )}
        </div>
      ) : (
        <p className="hint agreement">{agreementText}</p>
      )}

      {s.notice && (
        <p className="notice" role="status">
          {problemText(messages, { key: s.notice })}
        </p>
      )}
      {errors.form && (
        <p className="error" role="alert">
          {errors.form}
        </p>
      )}

      <button type="submit" className="button primary" disabled={s.busy}>
        {s.submitting ? m.submitting : register ? m.register : m.submit}
      </button>

      {passkeys && s.mode !== 'chain' && (
        <button
          type="button"
          className="button secondary passkey-sign-in"
          disabled={s.busy}
          aria-describedby="passkey-hint"
          onClick={() => void loadPasskeys().then((p) => p.signInWithPasskey())}
        >
          {passkeys.signIn}
        </button>
      )}
      {passkeys && s.mode !== 'chain' && (
        <p id="passkey-hint" className="hint">
          {passkeys.signInHint}
        </p>
      )}

      {wechatOn && messages.wechat && !wechatOpen && s.mode !== 'chain' && (
        <button type="button" className="button secondary wechat-sign-in" onClick={() => setWechatOpen(true)}>
          {messages.wechat.signInWith}
        </button>
      )}
      {wechatOn && messages.wechat && wechatOpen && (
        <Suspense fallback={<p role="status">{messages.wechat.opening}</p>}>
          <WechatPanel methods={wechat!} lang={lang} asked={wechatAsked} messages={{ wechat: messages.wechat, errors: messages.errors }} />
        </Suspense>
      )}

      <nav className="links">
        <a href="/forget">{m.forgot}</a>
        {s.channel === 'email' && s.mode !== 'chain' && !register && <a href="/pass_email_login">{m.emailLinkInstead}</a>}
        {register ? <a href="/login">{m.submit}</a> : <a href="/register">{m.register}</a>}
        <a href="/navigator_login">{m.partnerLink}</a>
      </nav>

      <Suspense fallback={null}>
        {dialog?.kind === 'agreement' && (
          <AgreementModal
            src={`/terms?lang=${lang}`}
            labels={m.agreement}
            onConfirm={() => closeDialog(true)}
            onCancel={() => closeDialog()}
            // "Get code" is disabled while it waits for the answer: focus returns to it once it is enabled again.
            returnFocusTo={() => document.querySelector<HTMLElement>('form.sign-in .code-button')}
          />
        )}
        {dialog?.kind === 'newUser' && (
          <NewUserModal
            maxLength={NEW_USER_COMPANY_MAX}
            labels={m.newUser}
            messages={{
              required: messages.validation.companyNameRequired,
              tooLong: messages.validation.companyNameTooLong,
            }}
            onContinue={(answers) => closeDialog(answers)}
            onCancel={() => closeDialog()}
          />
        )}
        {dialog?.kind === 'slider' && (
          <SliderDialog
            scene={dialog.scene}
            subject={dialog.subject}
            labels={{ ...m.slider, networkError: messages.errors.network }}
            // A refused check leaves the ways in that need no slider.
            otherWays={sliderWays({ register, registering: dialog.registering === true, scene: dialog.scene, passkeys: passkeys !== null }).map((way) =>
              way === 'emailCode'
                ? { label: m.slider.useEmailCode, choose: () => switchTo('code', 'email') }
                : way === 'password'
                  ? { label: m.slider.usePassword, choose: () => switchTo('password') }
                  : { label: m.slider.usePasskey, choose: () => void loadPasskeys().then((p) => p.signInWithPasskey()) },
            )}
          />
        )}
        {dialog?.kind === 'insecure' && (
          <InsecurePasswordModal
            labels={{ ...m.insecure, show: show.show, hide: show.hide }}
            messages={{
              required: messages.validation.passwordRequired,
              rule: messages.validation.passwordRule,
              mismatch: messages.validation.passwordMismatch,
            }}
            meetsRule={meetsPasswordRule}
            onConfirm={(newPassword) => closeDialog({ newPassword })}
            onCancel={() => closeDialog()}
          />
        )}
      </Suspense>
    </form>
  );
}
