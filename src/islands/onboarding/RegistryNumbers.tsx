import type { ReactNode } from 'react';
import type { Messages } from '../../i18n';
import type { UploadKind } from '../../schemas/onboarding';
import { TextField } from '../../ui/TextField';

type Field = 'imoCompanyNumber' | 'nationalRegistryNumber';

interface RegistryNumbersProps {
  /** The form's words (`registryNumbers`, `optional`). */
  m: Messages['onboarding'];
  /** The form's values (stores/company.ts; not imported here, so the store stays in the form's chunk). */
  s: Partial<Record<Field, string>>;
  /** The form's problems, in words. */
  errors: Partial<Record<Field, string>>;
  set: (key: Field, value: string) => void;
  /** Leaving the IMO company number checks it (company-actions.ts), in the visitor's words. */
  check: (field: 'imoCompanyNumber') => unknown;
  /** The form's own upload field (CompanyForm.tsx), for the registry evidence. */
  upload: (kind: UploadKind, label: string, hint: string, required: boolean) => ReactNode;
}

/**
 * An overseas company's registry numbers (issue 42), for a country other than mainland China: the IMO company number
 * (checked as it is left and at submit), the national registry number and their evidence, all optional. Loaded once
 * such a country is chosen, so they add nothing to the company form's first paint (the page's byte budget).
 */
export default function RegistryNumbers({ m, s, errors, set, check, upload }: RegistryNumbersProps) {
  const r = m.registryNumbers;
  const optional = (label: string) => `${label} (${m.optional})`;
  return (
    <fieldset className="registry-consent registry-numbers">
      <legend>{r.title}</legend>
      <div className="form-grid">
        <TextField
          id="imo-company-number"
          label={optional(r.imoCompanyNumber)}
          value={s.imoCompanyNumber ?? ''}
          onChange={(v) => set('imoCompanyNumber', v)}
          onBlur={() => void check('imoCompanyNumber')}
          error={errors.imoCompanyNumber}
          hint={r.imoCompanyNumberHint}
          maxLength={32}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          id="national-registry-number"
          label={optional(r.nationalRegistryNumber)}
          value={s.nationalRegistryNumber ?? ''}
          onChange={(v) => set('nationalRegistryNumber', v)}
          error={errors.nationalRegistryNumber}
          hint={r.nationalRegistryNumberHint}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      {upload('registryEvidence', optional(r.evidence), r.evidenceHint, false)}
    </fieldset>
  );
}
