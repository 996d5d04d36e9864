import { useEffect, useRef, useState } from 'react';
import { Modal } from './Modal';

/** The part of Cloudflare's Turnstile API this uses (https://developers.cloudflare.com/turnstile/). */
interface TurnstileApi {
  render: (element: HTMLElement, options: Record<string, unknown>) => string;
  remove: (widgetId: string) => void;
}
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
let scriptLoading: Promise<TurnstileApi> | undefined;

/** Cloudflare's script, fetched once and only when a Turnstile check opens (CAPTCHA_PROVIDER "turnstile"). */
function loadTurnstile(): Promise<TurnstileApi> {
  scriptLoading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile missing')));
    script.onerror = () => {
      scriptLoading = undefined;
      reject(new Error('turnstile script failed'));
    };
    document.head.append(script);
  });
  return scriptLoading;
}

interface TurnstileCheckProps {
  siteKey: string;
  lang: 'zh' | 'en';
  /** Sends the widget's token to the gateway: true when it passed, else the gateway's refusal to show, or false (labels.failed). */
  verify: (token: string) => Promise<boolean | string>;
  labels: { title: string; turnstileInstruction: string; close: string; failed: string; networkError: string };
  onCancel: () => void;
}

/** The human check with Cloudflare Turnstile in place of the slider: the widget, then the gateway's verify. */
export function TurnstileCheck({ siteKey, lang, verify, labels, onCancel }: TurnstileCheckProps) {
  const box = useRef<HTMLDivElement>(null);
  const [message, setMessage] = useState('');
  const verifyLatest = useRef(verify);
  verifyLatest.current = verify;
  useEffect(() => {
    let widgetId: string | undefined;
    let api: TurnstileApi | undefined;
    let alive = true;
    loadTurnstile().then(
      (loaded) => {
        if (!alive || !box.current) return;
        api = loaded;
        widgetId = loaded.render(box.current, {
          sitekey: siteKey,
          language: lang === 'zh' ? 'zh-cn' : 'en',
          callback: async (token: string) => {
            const answer = await verifyLatest.current(token);
            if (answer !== true && alive) setMessage(typeof answer === 'string' && answer ? answer : labels.failed);
          },
          'error-callback': () => setMessage(labels.networkError),
        });
      },
      () => alive && setMessage(labels.networkError),
    );
    return () => {
      alive = false;
      if (api && widgetId) api.remove(widgetId);
    };
  }, [siteKey, lang, labels.failed, labels.networkError]);
  return (
    <Modal title={labels.title} onCancel={onCancel}>
      <p className="hint">{labels.turnstileInstruction}</p>
      <div ref={box} className="turnstile-box" />
      <p className="error" role="status" aria-live="polite">{message}</p>
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={onCancel}>{labels.close}</button>
      </div>
    </Modal>
  );
}
