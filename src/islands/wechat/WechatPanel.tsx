import { useEffect, useRef, useState } from 'react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import type { WechatMethods, WechatMethod } from '../../schemas/wechat';
import { goToWechat, inWechatBrowser, type Failure } from '../../stores/wechat';
import type { Lang } from '../../lib/lang';
import { startElsewhere } from '../../lib/wechat-elsewhere';

interface WechatPanelProps {
  methods: WechatMethods;
  messages: Pick<Messages, 'wechat' | 'errors'>;
  lang: Lang;
  /** The method the person chose on another host's /login, to start at once here (lib/wechat-start.ts). */
  asked?: WechatMethod | null;
}

/**
 * The WeChat panel of /login, loaded only when the person opens it (its code stays out of /login's first load):
 * WeChat's QR code page, or inside WeChat's own browser its web authorization, and WeCom for companies.
 */
export default function WechatPanel({ methods, messages, lang, asked = null }: WechatPanelProps) {
  const m = messages.wechat;
  const [problem, setProblem] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (asked && methods[asked]) void go(asked);
  }, []);
  const inWechat = methods.mp && inWechatBrowser(navigator.userAgent);

  async function go(method: WechatMethod) {
    setBusy(true);
    setProblem(null);
    // On another host than PORTAL_ORIGIN (SITE_CN) the flow starts there: WeChat returns only to it.
    const elsewhere = startElsewhere(methods.startAt, location.href, method, lang);
    if (elsewhere) return location.assign(elsewhere);
    const failure = await goToWechat(method);
    if (failure) {
      setProblem(failure);
      setBusy(false);
    }
  }

  return (
    <section className="wechat-panel" aria-labelledby="wechat-panel-title">
      <h2 id="wechat-panel-title" ref={heading} tabIndex={-1} className="subsection-title">
        {m.panelTitle}
      </h2>
      <p className="hint">{inWechat ? m.inWechatLead : m.panelLead}</p>
      {inWechat ? (
        <button type="button" className="button primary" disabled={busy} onClick={() => void go('mp')}>
          {m.continueInWechat}
        </button>
      ) : (
        methods.qr && (
          <button type="button" className="button primary" disabled={busy} onClick={() => void go('qr')}>
            {m.showQr}
          </button>
        )
      )}
      {methods.wecom && (
        <button type="button" className="button secondary" disabled={busy} onClick={() => void go('wecom')}>
          {m.wecom}
        </button>
      )}
      <div className="live-region" role="status" aria-live="polite">
        {busy && <p className="notice">{m.opening}</p>}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problemText(messages, problem)}
        </p>
      )}
    </section>
  );
}
