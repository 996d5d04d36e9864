import { useEffect, useState } from 'react';
import { wechatApi } from '../../api/wechat';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { SOCIAL_PROVIDERS, type SocialBinding, type SocialProvider } from '../../schemas/wechat';
import { STEP_UP_CANCELLED, withFreshProof } from '../../stores/step-up-state';
import type { Failure } from '../../stores/wechat';
import { timeLabel } from './security-labels';

interface LinkedAccountsProps {
  lang: Lang;
  messages: Pick<Messages, 'wechat' | 'security' | 'errors'>;
}

/**
 * "WeChat and WeCom": what is tied to the account, Tie (WeChat's QR page or WeCom's, back through
 * /wechat_callback) and Untie. Both need a fresh proof ("Confirm it's you" first when the session has none).
 */
export function LinkedAccounts({ lang, messages }: LinkedAccountsProps) {
  const w = messages.wechat;
  const [bindings, setBindings] = useState<SocialBinding[] | null>(null);
  const [problem, setProblem] = useState<Failure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load() {
    const answer = await wechatApi.bindings();
    if (answer.ok) setBindings(answer.data);
    else setProblem(answer);
  }
  useEffect(() => void load(), []);

  async function tie(provider: SocialProvider) {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    // The bind call needs a fresh proof: asked for first, then the browser goes to WeChat.
    const started = await withFreshProof(() => wechatApi.bind(provider === 'wecom' ? 'wecom' : 'qr'));
    if (started.ok) return void location.assign(started.data.authorizeUrl);
    setBusy(false);
    if (started.code !== STEP_UP_CANCELLED) setProblem(started);
  }

  async function untie(provider: SocialProvider) {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    const answer = await withFreshProof(() => wechatApi.unbind(provider));
    setBusy(false);
    if (answer.ok) {
      setNotice(format(w.unbound, { provider: w.providers[provider] }));
      await load();
    } else if (answer.code !== STEP_UP_CANCELLED) setProblem(answer);
  }

  return (
    <div className="linked-accounts">
      <h3 id="linked-accounts" className="subsection-title">
        {w.title}
      </h3>
      <p className="hint">{w.lead}</p>
      {bindings && (
        <ul className="plain-list">
          {SOCIAL_PROVIDERS.map((provider) => {
            const bound = bindings.find((b) => b.provider === provider);
            const name = w.providers[provider];
            return (
              <li key={provider} className="linked-account">
                <span>
                  <strong>{name}</strong> {bound ? `${bound.nickname ? `${bound.nickname} · ` : ''}${format(w.boundOn, { date: timeLabel(bound.createdAt, lang) })}` : w.notBound}
                </span>{' '}
                {bound ? (
                  <button type="button" className="button secondary" disabled={busy} onClick={() => void untie(provider)}>
                    {format(w.unbind, { provider: name })}
                  </button>
                ) : (
                  <button type="button" className="button secondary" disabled={busy} onClick={() => void tie(provider)}>
                    {format(w.bind, { provider: name })}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="live-region" role="status" aria-live="polite">
        {notice && <p className="notice">{notice}</p>}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problemText(messages, problem)}
        </p>
      )}
    </div>
  );
}

