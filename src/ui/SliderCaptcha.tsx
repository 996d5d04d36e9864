import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { PowPayload, SliderChallenge, SliderCheck, SliderInput } from '../schemas/auth';
import { Modal } from './Modal';

/** The gateway refused a new puzzle (CP0005–CP0008, say): its own message, and when to try again. */
export interface SliderRefusal {
  message: string;
  /** Seconds until the gateway gives another puzzle, when it said. */
  retryAfter?: number;
}

/** A refusal as one text: the gateway's message, then the wait ({min} in `tryAgainIn`); Chinese sentences join without a space. */
export function refusalText(refusal: SliderRefusal, tryAgainIn: string): string {
  const wait = refusal.retryAfter ? tryAgainIn.replace('{min}', String(Math.max(1, Math.ceil(refusal.retryAfter / 60)))) : '';
  return [refusal.message, wait].filter(Boolean).reduce((text, next) => (!text || text.endsWith('。') ? text + next : `${text} ${next}`), '');
}

/** Another way to go on when the check is refused (an e-mail code, a password, a passkey). */
export interface OtherWay {
  label: string;
  choose: () => void;
}

interface SliderCaptchaProps {
  /**
   * Fetches a new challenge; null when the service could not be reached (tried again, up to 4 times), a refusal
   * when the gateway said no (not tried again), 'elsewhere' when another check takes over.
   */
  load: () => Promise<SliderChallenge | SliderRefusal | null | 'elsewhere'>;
  /** Sends the final position, the movement, how it was made and the solved proof of work; a check when it passed, null when it did not. */
  verify: (sessionId: string, x: number, trail: [number, number][], pow: PowPayload, input: SliderInput) => Promise<SliderCheck | null>;
  labels: {
    title: string;
    instruction: string;
    keyboardHint: string;
    handle: string;
    refresh: string;
    close: string;
    passed: string;
    failed: string;
    unavailable: string;
    /** {min}: minutes until another puzzle can be had. */
    tryAgainIn: string;
    otherWays: string;
  };
  /** Offered when the check is refused; none on a page with no other way in. */
  otherWays?: OtherWay[];
  onPassed: (check: SliderCheck) => void;
  onCancel: () => void;
}

/** Up to 4 tries to set the slider up, one second apart; a fresh puzzle every 60 s. */
export const SLIDER_MAX_INIT_TRIES = 4;
const INIT_RETRY_MS = 1000;
const REFRESH_MS = 60_000;
/** Slider width 380, as the gateway draws its puzzle (captcha/service.ts); phones scale it to 310/375 of the screen. */
export const SLIDER_WIDTH = 380;

export function SliderCaptcha({ load, verify, labels, otherWays = [], onPassed, onCancel }: SliderCaptchaProps) {
  const [challenge, setChallenge] = useState<SliderChallenge | null>(null);
  const [x, setX] = useState(0);
  const [status, setStatus] = useState<'loading' | 'ready' | 'checking' | 'failed' | 'passed' | 'unavailable' | 'refused'>('loading');
  const [refusal, setRefusal] = useState<SliderRefusal | null>(null);
  const trail = useRef<[number, number][]>([]);
  // Whether the piece was moved by keys: then the gateway does not judge the pace (a held key is even).
  const input = useRef<SliderInput>('pointer');
  const started = useRef(0);
  const drag = useRef<{ pointerX: number; startX: number } | null>(null);
  // The proof of work of the current puzzle, solving in Web Workers while the person drags.
  const pow = useRef<{ controller: AbortController; solved: Promise<PowPayload | null> } | null>(null);
  const width = Math.min(SLIDER_WIDTH, Math.floor((typeof window === 'undefined' ? 375 : window.innerWidth) * (310 / 375)));
  const scale = width / SLIDER_WIDTH;

  // The parent passes a new `load` on every render; the latest is used, but a re-render must not fetch a
  // new puzzle under the person's finger.
  /** Starts the puzzle's proof of work (the solver is fetched on first use), dropping the previous one. */
  const startSolving = (next: SliderChallenge) => {
    pow.current?.controller.abort();
    const controller = new AbortController();
    const solved = import('./pow-solver').then(({ solvePow }) => solvePow(next.pow, controller)).catch(() => null);
    pow.current = { controller, solved };
  };

  const loadLatest = useRef(load);
  loadLatest.current = load;
  const refresh = useCallback(async () => {
    setStatus('loading');
    for (let attempt = 1; attempt <= SLIDER_MAX_INIT_TRIES; attempt++) {
      const next = await loadLatest.current();
      if (next === 'elsewhere') return;
      if (next && !('sessionId' in next)) {
        // A refusal says why and until when; asking again at once would only be refused again.
        pow.current?.controller.abort();
        setChallenge(null);
        setRefusal(next);
        setStatus('refused');
        return;
      }
      if (next) {
        startSolving(next);
        setChallenge(next);
        setX(0);
        trail.current = [];
        input.current = 'pointer';
        setStatus('ready');
        return;
      }
      if (attempt < SLIDER_MAX_INIT_TRIES) await new Promise((resolve) => setTimeout(resolve, INIT_RETRY_MS));
    }
    setStatus('unavailable');
  }, []);

  useEffect(() => {
    void refresh();
    return () => pow.current?.controller.abort();
  }, [refresh]);
  useEffect(() => {
    if (status !== 'ready') return;
    const timer = setTimeout(() => void refresh(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [status, refresh]);

  const maxX = challenge ? challenge.width - challenge.pieceSize : 0;
  const move = (next: number) => {
    const clamped = Math.max(0, Math.min(maxX, next));
    if (trail.current.length === 0) started.current = performance.now();
    trail.current.push([Math.round(performance.now() - started.current), clamped]);
    setX(clamped);
  };

  const finish = async () => {
    if (!challenge || status !== 'ready' || trail.current.length === 0) return;
    setStatus('checking');
    const solved = await pow.current?.solved;
    const check = solved ? await verify(challenge.sessionId, x, trail.current, solved, input.current) : null;
    if (check) {
      setStatus('passed');
      onPassed(check);
      return;
    }
    setStatus('failed');
    // The server retires a failed challenge; a new one follows after the person has seen the message.
    setTimeout(() => void refresh(), 900);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (status !== 'ready') return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerX: event.clientX, startX: x };
    move(x);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    move(drag.current.startX + (event.clientX - drag.current.pointerX) / scale);
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    void finish();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (status !== 'ready') return;
    const step = event.shiftKey ? 20 : 4;
    const keyMove = (next: number) => {
      input.current = 'keyboard';
      move(next);
    };
    if (event.key === 'ArrowRight') keyMove(x + step);
    else if (event.key === 'ArrowLeft') keyMove(x - step);
    else if (event.key === 'Home') keyMove(0);
    else if (event.key === 'Enter' || event.key === ' ') void finish();
    else return;
    event.preventDefault();
  };

  const messages = { unavailable: labels.unavailable, refused: refusal ? refusalText(refusal, labels.tryAgainIn) : '', failed: labels.failed, passed: labels.passed };
  const message = status in messages ? messages[status as keyof typeof messages] : '';
  // A refused check or one that cannot load shows no puzzle: only why (until when, and the other ways in).
  const puzzle = status !== 'refused' && status !== 'unavailable';
  return (
    <Modal title={labels.title} onCancel={onCancel}>
      {puzzle && <p className="hint">{labels.instruction}</p>}
      {puzzle && (
        <div className="slider-stage" style={{ width, height: (challenge?.height ?? 160) * scale }}>
          {challenge && (
            <>
              <img className="slider-background" src={challenge.background} alt="" width={width} height={challenge.height * scale} draggable={false} />
              <img
                className="slider-piece"
                src={challenge.piece}
                alt=""
                draggable={false}
                style={{ left: x * scale, top: 0, width: challenge.pieceSize * scale, height: challenge.height * scale }}
              />
            </>
          )}
        </div>
      )}
      {puzzle && (
        <div className="slider-track" style={{ width }}>
          <div
            className="slider-handle"
            role="slider"
            tabIndex={0}
            aria-label={labels.handle}
            aria-valuemin={0}
            aria-valuemax={maxX}
            aria-valuenow={Math.round(x)}
            aria-describedby="slider-keyboard-hint"
            data-status={status}
            style={{ left: x * scale }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onKeyDown={onKeyDown}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12h14M13 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" /></svg>
          </div>
        </div>
      )}
      {puzzle && (
        <p id="slider-keyboard-hint" className="hint">
          {labels.keyboardHint}
        </p>
      )}
      <p className={status === 'passed' ? 'notice' : 'error'} role="status" aria-live="polite">
        {message}
      </p>
      {status === 'refused' && otherWays.length > 0 && (
        <div className="slider-other-ways">
          <p className="hint">{labels.otherWays}</p>
          {otherWays.map((way) => (
            <button key={way.label} type="button" className="button secondary" onClick={way.choose}>
              {way.label}
            </button>
          ))}
        </div>
      )}
      <div className="modal-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {labels.close}
        </button>
        <button type="button" className="button secondary" onClick={() => void refresh()} disabled={status === 'checking' || status === 'loading' || status === 'refused'}>
          {labels.refresh}
        </button>
      </div>
    </Modal>
  );
}
