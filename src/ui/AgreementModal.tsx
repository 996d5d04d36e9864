import { useEffect, useRef, useState } from 'react';
import { Modal } from './Modal';
import { format } from '../i18n/format';

interface AgreementModalProps {
  /** Same-site URL of the agreement page; it is framed, so its bottom can be detected. */
  src: string;
  labels: { title: string; countdown: string; scrollHint: string; confirm: string; cancel: string };
  onConfirm: () => void;
  onCancel: () => void;
  /** Where focus goes when the dialog closes, if what opened it lost focus meanwhile (Modal's returnFocusTo). */
  returnFocusTo?: () => HTMLElement | null;
}

/** Confirm is enabled only after a 5-second countdown and scrolling the agreement to the bottom (it must be seen). */
export const AGREEMENT_COUNTDOWN_S = 5;

/** `?embed=1` asks the edge for the page without the portal's header and footer (functions/edge/shells.ts). */
const embedded = (src: string) => `${src}${src.includes('?') ? '&' : '?'}embed=1`;

export function AgreementModal({ src, labels, onConfirm, onCancel, returnFocusTo }: AgreementModalProps) {
  const [secondsLeft, setSecondsLeft] = useState(AGREEMENT_COUNTDOWN_S);
  const [reachedBottom, setReachedBottom] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (secondsLeft === 0) return;
    const timer = setTimeout(() => setSecondsLeft(secondsLeft - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const watchScroll = () => {
    const win = frame.current?.contentWindow;
    if (!win) return;
    const check = () => {
      const doc = win.document.documentElement;
      if (win.scrollY + win.innerHeight >= doc.scrollHeight - 8) setReachedBottom(true);
    };
    win.addEventListener('scroll', check, { passive: true });
    // Escape closes the dialog from inside the framed text too, whose key presses the dialog never sees.
    win.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') onCancel();
    });
    check();
  };

  const ready = secondsLeft === 0 && reachedBottom;
  return (
    <Modal title={labels.title} onCancel={onCancel} wide focusTitle returnFocusTo={returnFocusTo}>
      <iframe ref={frame} className="agreement-frame" src={embedded(src)} title={labels.title} onLoad={watchScroll} />
      <p className="hint" aria-live="polite">
        {secondsLeft > 0 ? format(labels.countdown, { s: secondsLeft }) : reachedBottom ? '' : labels.scrollHint}
      </p>
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {labels.cancel}
        </button>
        <button type="button" className="button primary" disabled={!ready} onClick={onConfirm}>
          {labels.confirm}
        </button>
      </div>
    </Modal>
  );
}
