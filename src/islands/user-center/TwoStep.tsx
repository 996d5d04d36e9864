import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Messages } from '../../i18n';
import { problemText } from '../../i18n/problem';
import {
  $companyDevices,
  $companyTwoStep,
  $twoStep,
  askProof,
  cancelEnrolment,
  cancelProof,
  closeRecoveryCodes,
  confirmProof,
  finishEnrolment,
  loadTwoStep,
  loadCompanyDevices,
  setCompanyDevices,
  setCompanyRequirement,
  setTwoStepField,
  startEnrolment,
} from '../../stores/two-step';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { SubmitForm } from '../../ui/SubmitForm';
import { format } from '../../i18n/format';

type TwoStepMessages = Pick<Messages, 'twoStep' | 'stepUp' | 'errors'>;

/** The user center's two-step verification: status, enrolment with a QR code, recovery codes, turning it off. */
export function TwoStep({ messages }: { messages: TwoStepMessages }) {
  const m = messages.twoStep;
  const s = useStore($twoStep);
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    void loadTwoStep();
  }, []);
  // A new screen of this section (the QR code, the recovery codes) takes the focus to its heading.
  useEffect(() => {
    if (s.phase === 'enrolling' || s.phase === 'codes') heading.current?.focus();
  }, [s.phase]);

  const error = s.error ? problemText(messages, s.error) : undefined;
  const cancelButton = (cancel: () => void) => (
    <button type="button" className="button secondary" onClick={cancel}>
      {m.cancel}
    </button>
  );
  const codesText = s.recoveryCodes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${m.codesTitle}\n\n${codesText}\n`], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'recovery-codes.txt' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="two-step" data-phase={s.phase}>
      <h3 id="two-step-title" className="section-title" tabIndex={-1} ref={heading}>
        {s.phase === 'codes' ? m.codesTitle : m.sectionTitle}
      </h3>
      <div role="status" aria-live="polite">
        {s.notice && <p className="notice">{problemText(messages, s.notice)}</p>}
      </div>

      {s.phase === 'loading' && <p className="hint">…</p>}

      {(s.phase === 'off' || s.phase === 'on' || s.phase === 'proving') && (
        <>
          <p data-two-step-status={s.phase === 'off' ? 'off' : 'on'}>{s.phase === 'off' ? m.statusOff : m.statusOn}</p>
          {s.phase !== 'off' && s.status && <p className="hint">{format(m.recoveryLeft, { count: s.status.recoveryCodesLeft })}</p>}
          <p className="hint" data-two-step-passkeys>
            {m.passkeyIsTwoStep}
            {s.phase !== 'off' && ` ${m.passkeyAsSecondStep}`}
          </p>
          {error && <p className="error form-error" role="alert">{error}</p>}
          <div className="form-actions">
            {s.phase === 'off' ? (
              <button type="button" className="button primary" disabled={s.busy} onClick={() => void startEnrolment()}>
                {m.turnOn}
              </button>
            ) : (
              <>
                <button type="button" className="button secondary" disabled={s.busy} onClick={() => askProof('newCodes')}>
                  {m.newCodes}
                </button>
                <button type="button" className="button secondary" disabled={s.busy} onClick={() => askProof('disable')}>
                  {m.turnOff}
                </button>
              </>
            )}
          </div>
        </>
      )}

      {s.phase === 'enrolling' && (
        <SubmitForm onSend={finishEnrolment} error={undefined} busy={s.busy} submitLabel={m.finish} actions={cancelButton(cancelEnrolment)}>
          <p>{m.scanIntro}</p>
          <div className="qr-code" role="img" aria-label={m.qrLabel} dangerouslySetInnerHTML={{ __html: s.qrSvg }} />
          <p>
            {m.secretLabel} <code className="secret" data-two-step-secret>{s.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          {/* The enrolment says its error at the code field, not under the form. */}
          <AuthenticatorCodeField id="two-step-enrol-code" label={m.codeLabel} value={s.code} onChange={(value) => setTwoStepField('code', value)} error={error} />
        </SubmitForm>
      )}

      {s.phase === 'codes' && (
        <>
          <p>{m.codesIntro}</p>
          <ul className="recovery-codes" data-recovery-codes>
            {s.recoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <div role="status" aria-live="polite">{copied && <p className="notice">{m.copied}</p>}</div>
          <div className="form-actions">
            <button type="button" className="button secondary" onClick={() => void navigator.clipboard.writeText(codesText).then(() => setCopied(true))}>
              {m.copy}
            </button>
            <button type="button" className="button secondary" onClick={download}>
              {m.download}
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => {
                setCopied(false);
                void closeRecoveryCodes();
              }}
            >
              {m.done}
            </button>
          </div>
        </>
      )}

      {s.phase === 'proving' && (
        <ConfirmModal
          title={s.proving === 'disable' ? messages.stepUp.turnOffTitle : messages.stepUp.newCodesTitle}
          text={s.proving === 'disable' ? messages.stepUp.turnOffText : messages.stepUp.newCodesText}
          cancelLabel={m.cancel}
          confirmLabel={s.proving === 'disable' ? m.turnOff : m.newCodes}
          onCancel={cancelProof}
          onConfirm={() => void confirmProof()}
        />
      )}
    </div>
  );
}

/** An administrator's switch in the company card: members must have two-step on to enter the company. */
export function CompanyTwoStep({ companyId, required, messages }: { companyId: string; required: boolean; messages: TwoStepMessages }) {
  const m = messages.twoStep;
  const state = useStore($companyTwoStep)[companyId];
  const on = state?.required ?? required;
  const id = `company-two-step-${companyId}`;
  return (
    <div className="field checkbox-field company-two-step">
      <label htmlFor={id}>
        <input id={id} type="checkbox" checked={on} disabled={state?.busy} onChange={(event) => void setCompanyRequirement(companyId, event.target.checked)} />{' '}
        {m.companyRequire}
      </label>
      {on && <p className="hint">{m.companyRequired}</p>}
      {state?.error && (
        <p className="error" role="alert">
          {problemText(messages, state.error)}
        </p>
      )}
    </div>
  );
}

/**
 * An administrator's device rules of the company (issue 44), under its two-step rule: "confirm new devices" of its
 * members (the new-device challenge for their password sign-ins), and, while it requires two-step, no trusted devices.
 */
export function CompanyDevices(props: { companyId: string; twoStepRequired: boolean; messages: TwoStepMessages }) {
  const { companyId, messages } = props;
  const m = messages.twoStep;
  const state = useStore($companyDevices)[companyId];
  const twoStep = useStore($companyTwoStep)[companyId]?.required ?? props.twoStepRequired;
  useEffect(() => void loadCompanyDevices(companyId), [companyId]);
  if (!state) return null;
  const current = { confirmNewDevices: state.confirmNewDevices, forbidTrustedDevices: state.forbidTrustedDevices && twoStep };
  const confirmId = `company-confirm-devices-${companyId}`;
  const trustId = `company-forbid-trust-${companyId}`;
  return (
    <div className="company-devices">
      <div className="field checkbox-field">
        <label htmlFor={confirmId}>
          <input
            id={confirmId}
            type="checkbox"
            checked={current.confirmNewDevices}
            disabled={state.busy}
            aria-describedby={`${confirmId}-hint`}
            onChange={(event) => void setCompanyDevices(companyId, current, { confirmNewDevices: event.target.checked })}
          />{' '}
          {m.companyConfirmDevices}
        </label>
        <p className="hint" id={`${confirmId}-hint`}>
          {m.companyConfirmDevicesHint}
        </p>
      </div>
      {twoStep && (
        <div className="field checkbox-field">
          <label htmlFor={trustId}>
            <input
              id={trustId}
              type="checkbox"
              checked={current.forbidTrustedDevices}
              disabled={state.busy}
              aria-describedby={`${trustId}-hint`}
              onChange={(event) => void setCompanyDevices(companyId, current, { forbidTrustedDevices: event.target.checked })}
            />{' '}
            {m.companyForbidTrust}
          </label>
          <p className="hint" id={`${trustId}-hint`}>
            {m.companyForbidTrustHint}
          </p>
        </div>
      )}
      {state.error && (
        <p className="error" role="alert">
          {problemText(messages, state.error)}
        </p>
      )}
    </div>
  );
}
