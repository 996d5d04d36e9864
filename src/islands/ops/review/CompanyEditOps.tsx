import { useState } from 'react';
import { opsReviewApi } from '../../../api/ops-review';
import type { ConsoleMessages as Messages } from '../../../i18n';
import { problemOf, problemText, type Problem } from '../../../i18n/problem';
import type { ReviewDetailAnswer } from '../../../schemas/ops-review';
import { checkImoCompanyNumber, checkUscc } from '../../../schemas/registry-numbers';
import { FieldFrame } from '../../../ui/FieldFrame';
import { TextField } from '../../../ui/TextField';

type EditMessages = Pick<Messages, 'opsReview' | 'errors'>;
type Field = 'companyNameEn' | 'companyNameCn' | 'socialCredit' | 'imoCompanyNumber' | 'nationalRegistryNumber' | 'reason';

/** What the correction starts from: the company as the page shows it. */
const initialValues = (detail: ReviewDetailAnswer) => ({
  companyNameEn: detail.companyNameEn,
  companyNameCn: detail.companyNameCn ?? '',
  socialCredit: detail.socialCredit ?? '',
  imoCompanyNumber: detail.imoCompanyNumber ?? '',
  nationalRegistryNumber: detail.nationalRegistryNumber ?? '',
  reason: '',
});

/**
 * The operator's correction of a company (issue 42): its names and credit code (an overseas company's IMO company
 * number and national registry number too), with a reason for the trail. An IMO number is checked as the form does; a
 * mainland code is checked here as the company form checks it (the gateway checks it again); the edit acts only on
 * the company as the page shows it (RV0006 otherwise), and the page then loads it again.
 */
export function CompanyEditOps({ detail, messages, onSaved }: { detail: ReviewDetailAnswer; messages: EditMessages; onSaved: () => Promise<void> }) {
  const t = messages.opsReview.edit;
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(initialValues(detail));
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', Problem>>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const overseas = detail.countryId !== 'CN';
  const say = (problem: Problem | undefined) => (problem ? problemText(messages, problem) : undefined);
  const set = (field: Field, value: string) => {
    setValues({ ...values, [field]: value });
    setErrors({ ...errors, [field]: undefined, form: undefined });
  };

  function codeProblem(): Problem | null {
    if (detail.countryId !== 'CN') return null;
    const verdict = checkUscc(values.socialCredit);
    if (verdict.ok) return null;
    if (verdict.problem === 'checkCharacter') return { key: 'opsReview.edit.codeCheck', values: { expected: verdict.expected } };
    return { key: 'opsReview.edit.codeMalformed' };
  }

  /** An overseas company's IMO company number, as the gateway checks it (RG0004, RG0007); empty is none. */
  function imoProblem(): Problem | null {
    if (!values.imoCompanyNumber.trim()) return null;
    const verdict = checkImoCompanyNumber(values.imoCompanyNumber);
    if (verdict.ok) return null;
    return verdict.problem === 'checkDigit' ? { key: 'opsReview.edit.imoCheck', values: { expected: verdict.expected } } : { key: 'opsReview.edit.imoMalformed' };
  }

  async function save() {
    if (busy) return;
    const found: Partial<Record<Field, Problem>> = {};
    if (!values.companyNameEn.trim()) found.companyNameEn = { key: 'opsReview.edit.nameRequired' };
    const code = values.socialCredit.trim() ? codeProblem() : { key: 'opsReview.edit.codeRequired' as const };
    if (code) found.socialCredit = code;
    const imo = overseas ? imoProblem() : null;
    if (imo) found.imoCompanyNumber = imo;
    if (!values.reason.trim()) found.reason = { key: 'opsReview.edit.reasonRequired' };
    if (Object.keys(found).length) return setErrors(found);
    setBusy(true);
    const answer = await opsReviewApi.edit({
      companyId: detail.companyId,
      expectedUpdatedAt: detail.updatedAt,
      companyNameEn: values.companyNameEn,
      companyNameCn: values.companyNameCn.trim() || null,
      socialCredit: values.socialCredit,
      ...(overseas ? { imoCompanyNumber: values.imoCompanyNumber, nationalRegistryNumber: values.nationalRegistryNumber } : {}),
      reason: values.reason,
    });
    setBusy(false);
    if (!answer.ok) {
      const problem = problemOf(answer);
      const path = (answer.data as { path?: unknown } | null)?.path;
      const field: Field | 'form' =
        path === 'imoCompanyNumber' || path === 'nationalRegistryNumber' ? path : answer.code.startsWith('RG') ? 'socialCredit' : answer.code === 'CO0001' ? 'companyNameEn' : 'form';
      return setErrors({ [field]: problem });
    }
    setNotice(answer.data.changed.length ? t.saved : t.unchanged);
    setOpen(false);
    await onSaved();
  }

  return (
    <section aria-labelledby="review-edit" className="ops-edit">
      <h2 id="review-edit">{t.title}</h2>
      <div role="status" aria-live="polite">{notice && <p className="notice">{notice}</p>}</div>
      {!open ? (
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setNotice('');
            setValues(initialValues(detail));
            setErrors({});
            setOpen(true);
          }}
        >
          {t.open}
        </button>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            void save().then(() => form.isConnected && form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
          }}
        >
          <p className="hint">{t.hint}</p>
          <TextField id="edit-name-en" label={t.nameEn} value={values.companyNameEn} onChange={(v) => set('companyNameEn', v)} error={say(errors.companyNameEn)} maxLength={128} required />
          <TextField id="edit-name-cn" label={t.nameCn} value={values.companyNameCn} onChange={(v) => set('companyNameCn', v)} error={say(errors.companyNameCn)} maxLength={128} />
          <TextField
            id="edit-credit-code"
            label={t.creditCode}
            value={values.socialCredit}
            onChange={(v) => set('socialCredit', v)}
            error={say(errors.socialCredit)}
            maxLength={64}
            spellCheck={false}
            autoCapitalize="characters"
            required
          />
          {overseas && (
            <>
              <TextField
                id="edit-imo-company-number"
                label={t.imoCompanyNumber}
                value={values.imoCompanyNumber}
                onChange={(v) => set('imoCompanyNumber', v)}
                onBlur={() => setErrors((shown) => ({ ...shown, imoCompanyNumber: imoProblem() ?? undefined }))}
                error={say(errors.imoCompanyNumber)}
                maxLength={32}
                inputMode="numeric"
                spellCheck={false}
              />
              <TextField
                id="edit-national-registry-number"
                label={t.nationalRegistryNumber}
                value={values.nationalRegistryNumber}
                onChange={(v) => set('nationalRegistryNumber', v)}
                error={say(errors.nationalRegistryNumber)}
                maxLength={64}
                spellCheck={false}
              />
            </>
          )}
          <FieldFrame id="edit-reason" label={t.reason} error={say(errors.reason)} required>
            {(aria) => <textarea {...aria} id="edit-reason" className="input" maxLength={1000} value={values.reason} onChange={(event) => set('reason', event.target.value)} />}
          </FieldFrame>
          {errors.form && <p className="error" role="alert">{say(errors.form)}</p>}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={busy}>{t.save}</button>
            <button type="button" className="button secondary" disabled={busy} onClick={() => setOpen(false)}>{t.cancel}</button>
          </div>
        </form>
      )}
    </section>
  );
}
