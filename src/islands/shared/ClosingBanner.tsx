import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import { $dataRights, keepAccount, loadDataRights } from '../../stores/data-rights';
import { timeLabel } from '../user-center/security-labels';

/** The banner's words (of `dataRights`), so pages pass only these. */
export type ClosingWords = Pick<Messages['dataRights'], 'closing' | 'closingHint' | 'keep'>;

interface ClosingBannerProps {
  lang: Lang;
  words: ClosingWords;
}

/**
 * A closure under way, at the top of the pages a sign-in lands on (the user center, the account choice): the
 * closing date and "Keep my account". Loads the data-rights state ("Your data" shows the same).
 */
export function ClosingBanner({ lang, words: m }: ClosingBannerProps) {
  const s = useStore($dataRights);
  useEffect(() => {
    void loadDataRights();
  }, []);
  const closure = s.state?.closure;
  if (!closure) return null;
  return (
    <section className="panel closing-banner" aria-labelledby="closing-title">
      <h2 id="closing-title" className="section-title">{format(m.closing, { date: timeLabel(closure.closesAt, lang) })}</h2>
      <p>{m.closingHint}</p>
      <div className="form-actions">
        <button type="button" className="button primary" disabled={Boolean(s.busy)} onClick={() => void keepAccount()}>
          {m.keep}
        </button>
      </div>
    </section>
  );
}
