import type { Messages } from '../../i18n';
import { TextField } from '../../ui/TextField';

type Field = 'registryConsent' | 'legalRepName' | 'legalRepId';

interface RegistryConsentProps {
  words: Messages['onboarding']['registry'];
  /** The two fields' problems, in words. */
  errors: { legalRepName?: string; legalRepId?: string };
  /** The form's values and its setter (stores/company.ts; not imported here, so the store stays in the form's chunk). */
  values: { registryConsent: boolean; legalRepName: string; legalRepId: string };
  onChange: <K extends Field>(key: K, value: K extends 'registryConsent' ? boolean : string) => void;
}

/**
 * The company form's registry check (issue 42), for a mainland company: the applicant's choice, with the consent's
 * words (REGISTRY_CONSENT_VERSION); the legal representative's name and ID number only once chosen.
 */
export default function RegistryConsent({ words, errors, values: s, onChange: setCompanyField }: RegistryConsentProps) {
  const m = { registry: words };
  return (
    <fieldset className="registry-consent">
      <legend>{m.registry.title}</legend>
      <p className="hint" id="registry-consent-text">
        {m.registry.consent}
      </p>
      <label className="check">
        <input
          type="checkbox"
          id="registry-consent"
          aria-describedby="registry-consent-text registry-consent-hint"
          checked={s.registryConsent}
          onChange={(event) => setCompanyField('registryConsent', event.target.checked)}
        />
        <span>{m.registry.agree}</span>
      </label>
      <p className="hint" id="registry-consent-hint">
        {m.registry.hint}
      </p>
      {s.registryConsent && (
        <div className="form-grid">
          <TextField id="legal-rep-name" label={m.registry.legalRepName} value={s.legalRepName} onChange={(v) => setCompanyField('legalRepName', v)} error={errors.legalRepName} maxLength={64} autoComplete="off" required />
          <TextField
            id="legal-rep-id"
            label={m.registry.legalRepId}
            value={s.legalRepId}
            onChange={(v) => setCompanyField('legalRepId', v)}
            error={errors.legalRepId}
            hint={m.registry.legalRepIdHint}
            maxLength={24}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
          />
        </div>
      )}
    </fieldset>
  );
}
