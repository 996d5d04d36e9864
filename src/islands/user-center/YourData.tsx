import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { problemText } from '../../i18n/problem';
import type { Lang } from '../../lib/lang';
import { dataCopyUrl } from '../../api/data-rights';
import { $closeQuestion, $dataRights, askForCopy, cancelCloseQuestion, closeAccount, loadDataRights, makeCopyNow, openCloseQuestion, setTracking } from '../../stores/data-rights';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { DataMapTable } from '../../ui/DataMapTable';
import { timeLabel } from './security-labels';
import { ContactChange } from './ContactChange';

type YourDataMessages = Pick<Messages, 'dataRights' | 'errors'>;

/** Bytes as a person reads them: "1.2 MB". */
function sizeLabel(bytes: number | null, lang: Lang): string {
  if (bytes === null) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-GB', { maximumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}

/** "Your data": the data map, agreements and consents, a copy of the data, closing the account. */
export function YourData({ lang, messages, sliderLabels }: { lang: Lang; messages: YourDataMessages; sliderLabels: Messages['signIn']['slider'] & { networkError: string } }) {
  const m = messages.dataRights;
  const s = useStore($dataRights);
  const asking = useStore($closeQuestion);
  const state = s.state;
  const tracking = state?.consents.find((consent) => consent.purpose === 'tracking');
  const latest = state?.copies[0];
  const date = (at: number) => timeLabel(at, lang);
  // The section loads its own state when it comes near (the closing banner reads only the closure: stores/closure.ts).
  useEffect(() => {
    void loadDataRights();
  }, []);

  return (
    <section className="security-section your-data" aria-labelledby="your-data">
      <h2 id="your-data" className="section-title">{m.title}</h2>
      <div className="live-region" role="status" aria-live="polite">
        {s.notice && <p className="notice">{problemText(messages, s.notice)}</p>}
      </div>
      {s.error && <p className="error" role="alert">{problemText(messages, s.error)}</p>}

      <section className="panel" aria-labelledby="data-map-title">
        <h3 id="data-map-title" className="subsection-title">{m.mapTitle}</h3>
        <p className="hint">{m.hint}</p>
        <DataMapTable words={m} />
        <p className="hint">{m.correctHint}</p>
        <ContactChange lang={lang} messages={messages} sliderLabels={sliderLabels} />
      </section>

      <section className="panel" aria-labelledby="consents-title">
        <h3 id="consents-title" className="subsection-title">{m.agreementsTitle}</h3>
        <ul className="plain-list">
          {state?.agreements.map((agreement) => (
            <li key={`${agreement.document}-${agreement.version}`}>
              <strong>{m.documents[agreement.document as keyof typeof m.documents] ?? agreement.document}</strong>
              {' · '}
              {format(m.agreed, { version: agreement.version, date: date(agreement.agreedAt) })}
            </li>
          ))}
        </ul>
        <p className="hint">{m.termsNote}</p>
        {Boolean(state?.registryChecked.length) && (
          <>
            <h3 id="registry-title" className="subsection-title">{m.registryTitle}</h3>
            <ul className="plain-list registry-checked">
              {state?.registryChecked.map((company) => (
                <li key={company.companyId}>{format(m.registryChecked, { company: company.name, date: date(company.checkedAt) })}</li>
              ))}
            </ul>
            <p className="hint">{m.registryNote}</p>
          </>
        )}
        <h3 id="tracking-title" className="subsection-title">{m.trackingTitle}</h3>
        {tracking && (
          <>
            <p>{tracking.granted ? m.trackingOn : format(m.trackingOff, { date: date(tracking.changedAt ?? 0) })}</p>
            <div className="form-actions">
              <button type="button" className="button secondary" disabled={Boolean(s.busy)} onClick={() => void setTracking(!tracking.granted)}>
                {tracking.granted ? m.trackingWithdraw : m.trackingGive}
              </button>
            </div>
          </>
        )}
      </section>

      <section className="panel" aria-labelledby="copy-title" aria-busy={s.phase === 'loading' || undefined}>
        <h3 id="copy-title" className="subsection-title">{m.copyTitle}</h3>
        <p className="hint">{m.copyHint}</p>
        {latest && (
          <p className="copy-status" data-status={latest.status}>
            {format(m.copyStatus[latest.status], { date: date(latest.status === 'ready' ? (latest.expiresAt ?? 0) : latest.requestedAt) })}
          </p>
        )}
        <div className="form-actions">
          {latest?.status === 'ready' && (
            <a className="button primary" href={dataCopyUrl(latest.id)} download>
              {format(m.download, { size: sizeLabel(latest.size, lang) })}
            </a>
          )}
          <button type="button" className="button secondary" disabled={Boolean(s.busy) || !state || state.nextCopyAt !== null} onClick={() => void askForCopy()}>
            {m.askCopy}
          </button>
        </div>
        {state?.nextCopyAt && <p className="hint">{format(m.nextCopy, { date: date(state.nextCopyAt) })}</p>}
        {state?.localRun && latest?.status === 'queued' && (
          // wrangler dev runs no Cron Trigger: without this the copy would wait for ever in a local run (issue 47).
          <div className="notice local-run">
            <p>{m.localRunCopy}</p>
            <button type="button" className="button secondary" disabled={Boolean(s.busy)} onClick={() => void makeCopyNow()}>
              {m.makeCopyNow}
            </button>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="close-title">
        <h3 id="close-title" className="subsection-title">{m.closeTitle}</h3>
        <p>{format(m.closeHint, { days: String(state?.coolingOffDays ?? 15) })}</p>
        <p className="hint">{m.closeAdminNote}</p>
        {state?.closure ? (
          <p className="notice">{format(m.closing, { date: date(state.closure.closesAt) })}</p>
        ) : (
          <div className="form-actions">
            <button type="button" className="button danger" disabled={Boolean(s.busy) || !state} onClick={openCloseQuestion}>
              {m.closeButton}
            </button>
          </div>
        )}
      </section>

      {asking && (
        <ConfirmModal
          title={m.closeConfirmTitle}
          text={format(m.closeConfirmText, { days: String(state?.coolingOffDays ?? 15) })}
          cancelLabel={m.cancel}
          confirmLabel={m.closeButton}
          onCancel={cancelCloseQuestion}
          onConfirm={() => void closeAccount()}
        />
      )}
    </section>
  );
}
