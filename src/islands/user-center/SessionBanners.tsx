import type { Messages } from '../../i18n';
import type { Lang } from '../../lib/lang';
import type { MeAnswer } from '../../schemas/profile';
import { ActingBanner } from './ActingBanner';
import { SupportBanner } from './SupportBanner';

/**
 * What this session is besides the person's own: a support "view as" (issue 44) and acting for another company
 * (issue 41). One lazy chunk for both, loaded only when the record says one of them (the first screen's budget).
 */
export function SessionBanners({ lang, me, words }: { lang: Lang; me: MeAnswer; words: Messages['userCenter'] }) {
  return (
    <>
      {me.supportView && <SupportBanner lang={lang} view={me.supportView} words={words} />}
      {me.actingFor && <ActingBanner lang={lang} acting={me.actingFor} words={words} ownCompany={me.accountId} />}
    </>
  );
}
