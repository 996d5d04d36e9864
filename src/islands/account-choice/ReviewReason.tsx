import type { Lang } from '../../lib/lang';
import { format } from '../../i18n/format';
import { reviewReasonText } from '../../schemas/review-outcome';

/**
 * A review decision's reason as the administrator reads it on /account. Its own chunk (the reasons' words in both
 * languages, 1.2 KB), loaded only for a company that has one: most people's companies are verified (issue 46's budgets).
 */
export default function ReviewReason({ lang, template, reason, note }: { lang: Lang; template: string; reason: string | null; note: string | null }) {
  return <>{format(template, { reason: reviewReasonText(lang, reason, note) })}</>;
}
