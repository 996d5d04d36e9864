import { useEffect, useState } from 'react';
import { grantsApi } from '../../api/grants';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import type { ActingChoice } from '../../schemas/grants';

export type ActingWords = Pick<Messages['grants'], 'actingTitle' | 'actingLead' | 'actFor' | 'scopeVessels' | 'scopePorts' | 'scopeModules' | 'levels' | 'none'>;

/**
 * "Act for another company" on /account (issue 41): the grants the person may act under now, each with its scope
 * and the modules they would have; choosing one acts for that company in this session. Loads only when there is one.
 */
export default function ActingChoices({ lang, words: g, busy, onActFor }: { lang: Lang; words: ActingWords; busy: boolean; onActFor: (grantId: string) => void }) {
  const [choices, setChoices] = useState<ActingChoice[]>([]);
  useEffect(() => {
    void grantsApi.actingChoices().then((answer) => answer.ok && setChoices(answer.data));
  }, []);
  if (!choices.length) return null;
  return (
    <section className="acting-choices" aria-labelledby="acting-title">
      <h2 id="acting-title" className="subsection-title">{g.actingTitle}</h2>
      <p className="hint">{g.actingLead}</p>
      <ul className="company-list" aria-labelledby="acting-title">
        {choices.map((choice) => {
          const name = lang === 'zh' && choice.principal.nameCn ? choice.principal.nameCn : choice.principal.nameEn;
          const until = new Intl.DateTimeFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeZone: 'Asia/Shanghai' }).format(choice.until - 1);
          return (
            <li key={choice.grantId} className="company-card" data-acting={choice.grantId}>
              <div className="company-head">
                <h3 className="company-name">{name}</h3>
                <span className="badge">{g.levels[choice.level]}</span>
              </div>
              <ul className="connect-scopes">
                <li>{format(g.scopeVessels, { list: choice.vessels.join(', ') || g.none })}</li>
                <li>{format(g.scopePorts, { list: choice.ports.join(', ') || g.none })}</li>
                <li>{format(g.scopeModules, { list: choice.modules.map((module) => module.name).join(lang === 'zh' ? '、' : ', ') })}</li>
                <li>{until}</li>
              </ul>
              <div className="company-actions">
                <button type="button" className="button primary" disabled={busy} onClick={() => onActFor(choice.grantId)}>
                  {format(g.actFor, { company: name })}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
