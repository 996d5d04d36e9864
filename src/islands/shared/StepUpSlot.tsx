import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import type { Messages } from '../../i18n';
import { $stepUp } from '../../stores/step-up-state';

// The dialog loads with the first "Confirm it's you": pages that may need it keep a small first load.
const StepUpDialog = lazy(() => import('./StepUpDialog').then((module) => ({ default: module.StepUpDialog })));

/** Where a page puts the "Confirm it's you" dialog: nothing until a change asks for it (stores/step-up.ts). */
export function StepUpSlot({ messages }: { messages: Pick<Messages, 'stepUp' | 'errors'> }) {
  const open = useStore($stepUp).phase !== 'closed';
  return open ? (
    <Suspense fallback={null}>
      <StepUpDialog messages={messages} />
    </Suspense>
  ) : null;
}
