import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { $wechat, takeCallback } from '../../stores/wechat';
import { ReturnProblem } from '../../ui/ProviderReturn';

// The phone form is only for a WeChat the portal does not know: its fields load when it is shown, so the page's
// first load stays small (it already needs the gateway client to take the callback).
const WechatPhoneForm = lazy(() => import('./WechatPhoneForm'));

export interface WechatCallbackProps {
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
  useEffect(() => void takeCallback(), []);

  if (s.step === 'checking' || s.step === 'redirecting') return <p className="notice" role="status">{m.checking}</p>;
  // Which WeChat was tied (its nickname), so a person who scanned with the wrong one notices at once.
  if (s.step === 'bound') return <p className="notice" role="status">{format(s.nickname ? m.bound : m.boundUnnamed, { provider: m.providers[s.provider], name: s.nickname })}</p>;
  if (s.step === 'cancelled' || s.step === 'failed') {
    return <ReturnProblem title={m.panelTitle} text={s.step === 'cancelled' ? m.cancelled : problemText(messages, s.problem!)} backLabel={m.backToLogin} />;
  }

  return (
    <Suspense fallback={<p className="notice" role="status">{m.checking}</p>}>
      <WechatPhoneForm lang={lang} messages={messages} sliderLabels={sliderLabels} />
    </Suspense>
  );
}
