import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { $closure, loadClosure } from '../../stores/closure';
import type { ClosingBannerProps } from './ClosingBanner';

// The banner itself (with its date words) loads only for an account whose closure is under way (issue 31).
const ClosingBanner = lazy(() => import('./ClosingBanner').then((m) => ({ default: m.ClosingBanner })));

/** Where the closing banner goes: reads whether a closure is under way, and shows the banner only then. */
export function ClosingBannerSlot(props: ClosingBannerProps) {
  const closure = useStore($closure);
  useEffect(() => {
    void loadClosure();
  }, []);
  return closure ? (
    <Suspense fallback={null}>
      <ClosingBanner {...props} />
    </Suspense>
  ) : null;
}
