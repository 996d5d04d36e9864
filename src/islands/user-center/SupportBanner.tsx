import { useState } from 'react';
import { accountApi } from '../../api/account';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import type { MeAnswer } from '../../schemas/profile';

interface SupportBannerProps {
  lang: Lang;
  view: NonNullable<MeAnswer['supportView']>;
  words: Pick<Messages['userCenter'], 'supportBanner' | 'supportReadOnly' | 'supportWritable' | 'endSupport'>;
}

/**
 * "Support (<operator>) is viewing as you until hh:mm" (issue 44), while this session is a support "view as": read-only
 * or with changes allowed, and End, which signs this session out (the gateway ends the view and tells the person) and
 * goes back to the operators' console.
 */
export function SupportBanner({ lang, view, words }: SupportBannerProps) {
  const [busy, setBusy] = useState(false);
  const time = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'Asia/Shanghai' }).format(view.until);
  const title = format(words.supportBanner, { operator: view.operator, time });

  async function end() {
    if (busy) return;
    setBusy(true);
    await accountApi.logout();
    location.assign('/ops/support');
  }

  return (
    <div className="acting-banner support-banner" role="region" aria-label={title}>
      <p>
        <strong>{title}</strong>
      </p>
      <p className="hint">{view.writable ? words.supportWritable : words.supportReadOnly}</p>
      <button type="button" className="button secondary small" disabled={busy} onClick={() => void end()}>
        {words.endSupport}
      </button>
    </div>
  );
}
