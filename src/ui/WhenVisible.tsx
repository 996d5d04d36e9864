import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

/** How far below (and above) the viewport a part starts loading: half a screen ahead of a person scrolling. */
const AHEAD = '50% 0px';

/** Every place waiting, so that the first Tab key of the page can open them all at once. */
const waiting = new Set<() => void>();
let keyboardListening = false;

/**
 * A person moving through the page with Tab reaches every part: the first Tab key opens all places still waiting,
 * before focus can pass them by (they load in well under the time between two key presses).
 */
function listenForKeyboard() {
  if (keyboardListening || typeof document === 'undefined') return;
  keyboardListening = true;
  document.addEventListener('keydown', function openAll(event) {
    if (event.key !== 'Tab') return;
    for (const open of [...waiting]) open();
  });
}

/** The part of the address after `#`, decoded. */
const hashTarget = () => decodeURIComponent(location.hash.slice(1));

/**
 * Renders `children` (whose code loads lazily inside) once this place comes within half a screen of the viewport, once
 * the address names one of `anchors` (e.g. /user_center#your-data, which is then scrolled to once it is there), or
 * once the person starts moving through the page with the keyboard. Until then, and while the code loads, a quiet
 * placeholder of `minHeight` ("Loading…" in the page's words) holds the place, so the parts below do not jump when
 * it fills. Without IntersectionObserver it renders at once. `children` render together, inside one Suspense.
 */
export function WhenVisible({ children, anchors = [], minHeight = '6rem', loading }: { children: ReactNode; anchors?: readonly string[]; minHeight?: string; loading: string }) {
  const place = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  const [scrollTo, setScrollTo] = useState<string | null>(null);
  const anchorKey = anchors.join(' ');

  useEffect(() => {
    const element = place.current;
    if (!element || typeof IntersectionObserver !== 'function') return setVisible(true);
    const open = () => {
      waiting.delete(open);
      setVisible(true);
      observer.disconnect();
    };
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) open();
    }, { rootMargin: AHEAD });
    const onHash = () => {
      const target = hashTarget();
      if (!anchorKey.split(' ').includes(target)) return;
      setScrollTo(target);
      open();
    };
    waiting.add(open);
    listenForKeyboard();
    observer.observe(element);
    onHash();
    addEventListener('hashchange', onHash);
    return () => {
      waiting.delete(open);
      observer.disconnect();
      removeEventListener('hashchange', onHash);
    };
  }, [anchorKey]);

  // The address named a part inside: once its code has loaded and it is on the page, show it.
  useEffect(() => {
    if (!visible || !scrollTo) return;
    let frame = 0;
    const until = Date.now() + 10_000;
    const look = () => {
      const target = document.getElementById(scrollTo);
      if (target) return target.scrollIntoView();
      if (Date.now() < until) frame = requestAnimationFrame(look);
    };
    look();
    return () => cancelAnimationFrame(frame);
  }, [visible, scrollTo]);

  const placeholder = (
    <div className="when-visible-waiting" style={{ minHeight }} aria-busy="true">
      <p className="hint">{loading}</p>
    </div>
  );
  return <div ref={place}>{visible ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder}</div>;
}
