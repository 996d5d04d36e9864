import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import { $closure } from '../../stores/closure';
import { timeLabel } from '../user-center/security-labels';

/** The banner's words (of `dataRights`), so pages pass only these. */
export type ClosingWords = Pick<Messages['dataRights'], 'closing' | 'closingHint' | 'keep'>;

export interface ClosingBannerProps {
  lang: Lang;
  words: ClosingWords;
}

/**
 * A closure under way, at the top of the pages a sign-in lands on (the user center, the account choice): the
 * closing date and "Keep my account". Reads the data-rights state through stores/closure.ts ("Your data" keeps it
 * current); the data-rights store loads with the button's click (issue 31). ClosingBannerSlot reads the state and
 * loads this banner only for a closure under way.
 */
export function ClosingBanner({ lang, words: m }: ClosingBannerProps) {
  const closure = useStore($closure);
  const [busy, setBusy] = useState(false);
  if (!closure) return null;
  const keep = async () => {
    setBusy(true);
    const { keepAccount } = await import('../../stores/data-rights');
    await keepAccount();
    setBusy(false);
  };
  return (
    <section className="panel closing-banner" aria-labelledby="closing-title">
      <h2 id="closing-title" className="section-title">{format(m.closing, { date: timeLabel(closure.closesAt, lang) })}</h2>
      <p>{m.closingHint}</p>
      <div className="form-actions">
        <button type="button" className="button primary" disabled={busy} onClick={() => void keep()}>
          {m.keep}
        </button>
      </div>
    </section>
  );
}
