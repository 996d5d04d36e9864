import { useState } from 'react';
import { accountApi } from '../../api/account';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import type { MeAnswer } from '../../schemas/profile';

interface ActingBannerProps {
  lang: Lang;
  acting: NonNullable<MeAnswer['actingFor']>;
  /** The person's own company, which the session goes back to. */
  ownCompany: string | null;
  words: Pick<Messages['userCenter'], 'actingBanner' | 'actingScope' | 'stopActing' | 'actingNone'>;
}

/**
 * "You are acting for <company>" (issue 41): while the session acts under a grant between companies, with the
 * grant's scope in words and the way back to the person's own company.
 */
export function ActingBanner({ lang, acting, ownCompany, words }: ActingBannerProps) {
  const [busy, setBusy] = useState(false);
  const name = lang === 'zh' && acting.principal.nameCn ? acting.principal.nameCn : acting.principal.nameEn;
  const until = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeZone: 'Asia/Shanghai' }).format(acting.until - 1);
  const none = words.actingNone;

  async function stop() {
    if (busy || !ownCompany) return;
    setBusy(true);
    const chosen = await accountApi.chooseAccount(ownCompany);
    if (chosen.ok) location.reload();
    else setBusy(false);
  }

  return (
    <div className="acting-banner" role="region" aria-label={format(words.actingBanner, { company: name })}>
      <p>
        <strong>{format(words.actingBanner, { company: name })}</strong>
      </p>
      <p className="hint">{format(words.actingScope, { vessels: acting.vessels.join(', ') || none, ports: acting.ports.join(', ') || none, until })}</p>
      {ownCompany && (
        <button type="button" className="button secondary small" disabled={busy} onClick={() => void stop()}>
          {format(words.stopActing, { company: name })}
        </button>
      )}
    </div>
  );
}
