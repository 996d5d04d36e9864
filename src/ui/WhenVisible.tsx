import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` once this place comes near the viewport (or at once without IntersectionObserver): a part
 * far down a page, with its code loaded lazily inside, costs the page's first load nothing.
 */
export function WhenVisible({ children }: { children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = place.current;
    if (!element || typeof IntersectionObserver !== 'function') return setVisible(true);
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      setVisible(true);
      observer.disconnect();
    }, { rootMargin: '200px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return <div ref={place}>{visible ? children : null}</div>;
}
