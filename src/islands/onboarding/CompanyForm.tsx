import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Lang } from '../../lib/lang';
import { COMPANY_NAME_MAX, GTC_REQUIRED_TYPES, PORT_REQUIRED_TYPES } from '../../schemas/company-form-rules';
import type { CompanyType } from '../../schemas/company-status';
import type { UploadKind } from '../../schemas/onboarding';
import type { Messages } from '../../i18n';
import {
  $company,
  $companyErrors,
  addFiles,
  checkCompanyField,
  $usccRules,
  creditCodeWarned,
  initCreateCompany,
  initFillCompany,
  prepareCompany,
  removeFile,
  searchCountries,
  searchPorts,
  setCompanyArea,
  setCompanyField,
  submitCompany,
} from '../../stores/company';
import { acceptFor, uploadRules } from '../../stores/uploads';
import { FieldFrame } from '../../ui/FieldFrame';
import { FileUpload } from '../../ui/FileUpload';
import { PhoneField } from '../../ui/PhoneField';
import { SearchSelect, type SearchOption } from '../../ui/SearchSelect';
import { TextField } from '../../ui/TextField';
import { useProblems } from '../shared/use-problems';
import { Steps } from './Steps';
import { format } from '../../i18n/format';

interface CompanyFormProps {
  lang: Lang;
  mode: 'create' | 'fill';
  messages: Pick<Messages, 'onboarding' | 'upload' | 'errors' | 'companyTypes' | 'common'>;
}

const RegistryConsent = lazy(() => import('./RegistryConsent'));
/** An overseas company's registry numbers and evidence (issue 42): loaded once a country other than CN is chosen. */
const RegistryNumbers = lazy(() => import('./RegistryNumbers'));

/** The area-code list, stable, loaded once the form is first used (as on /join and /login): not with the page (issue 31). */
const loadPhoneCodesLazily = () => import('../../api/dictionaries').then((d) => d.loadPhoneCodes());

/** /create_account and /fill_account: the enterprise administrator form. */
export default function CompanyForm({ lang, mode, messages }: CompanyFormProps) {
  const m = messages.onboarding;
  const u = messages.upload;
  const s = useStore($company);
  const usccRules = useStore($usccRules);
  const errors = useProblems($companyErrors, messages);
  const [prepared, setPrepared] = useState(false);
  // The searches, checks, submit and the area-code list load when the form is first focused or pointed at (issue 31),
  // well before a person can send it or open a picker's list; until then the phone picker shows the current code.
  const prepare = () => {
    if (prepared) return;
    setPrepared(true);
    prepareCompany();
  };

  useEffect(() => {
    if (mode === 'fill') void initFillCompany();
    else initCreateCompany();
  }, [mode, lang]);

  if (s.phase === 'loading') return <div className="spinner" role="status">{messages.common.loading}</div>;
  if (s.phase === 'missing') {
    return (
      <div className="onboarding">
        <p className="notice-banner" role="alert">{errors.form ?? m.noCompanyToFill}</p>
        <a className="button secondary" href="/account">{m.back}</a>
      </div>
    );
  }

  const portRequired = s.companyType !== '' && PORT_REQUIRED_TYPES.includes(s.companyType);
  const fuel = s.companyType !== '' && GTC_REQUIRED_TYPES.includes(s.companyType);
  const searchLabels = { searching: m.searching, noResults: m.noResults };
  const counter = (value: string) => format(m.counter, { n: value.length, max: COMPANY_NAME_MAX });
  const uploadLabels = (max: number) => ({ choose: max > 1 ? u.choose : u.chooseOne, uploading: u.uploading, remove: u.remove, count: u.count });
  const upload = (kind: UploadKind, label: string, hint: string, required: boolean) => (
    <FileUpload
      id={`upload-${kind}`}
      label={label}
      files={s[kind]}
      max={uploadRules[kind].max}
      accept={acceptFor(kind)}
      busy={s.uploading[kind]}
      error={errors[kind]}
      hint={hint}
      required={required}
      preview={kind === 'logo'}
      labels={uploadLabels(uploadRules[kind].max)}
      onFiles={(files) => void addFiles(kind, files)}
      onRemove={(id) => void removeFile(kind, id)}
    />
  );

  const searchCountry = async (term: string): Promise<SearchOption[]> => {
    const found = await searchCountries(term);
    if (!found?.ok) return [];
    return found.data.map((c) => ({ value: c.id, label: lang === 'zh' ? c.nameCn : c.name, detail: lang === 'zh' ? c.name : c.nameCn }));
  };
  const searchPort = async (term: string): Promise<SearchOption[]> => {
    const found = await searchPorts(term);
    if (!found?.ok) return [];
    return found.data.map((p) => ({ value: p.id, label: lang === 'zh' && p.nameCn ? p.nameCn : p.name, detail: p.code }));
  };

  return (
    <form
      className="onboarding company-form"
      noValidate
      onFocus={prepare}
      onPointerEnter={prepare}
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        // After a refused submit, focus goes to the first field that needs attention.
        void submitCompany().then(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      }}
    >
      {/* Choosing the company type is the enterprise-type step: it is done once a type is chosen. */}
      {mode === 'create' && <Steps current={s.companyType ? 3 : 2} labels={m.steps} />}
      <p className="hint required-legend">{m.requiredLegend}</p>
      {mode === 'fill' && s.review?.status === 'additionalInformationRequired' && (
        <div className="notice-banner review-asked" role="status">
          <p>{format(m.reviewAsked, { reason: s.review.text })}</p>
          <p className="hint">{m.reviewAskedHint}</p>
        </div>
      )}
      <div className="form-grid">
        <TextField
          id="company-name-en"
          label={m.companyNameEn}
          value={s.companyNameEn}
          onChange={(v) => setCompanyField('companyNameEn', v)}
          error={errors.companyNameEn}
          hint={counter(s.companyNameEn)}
          maxLength={COMPANY_NAME_MAX}
          autoComplete="organization"
          required
        />
        <FieldFrame id="company-type" label={m.companyType} error={errors.companyType} required>
          {(aria) => (
            <select
              {...aria}
              id="company-type"
              className="select"
              value={s.companyType}
              required
              onChange={(event) => setCompanyField('companyType', event.target.value as CompanyType)}
            >
              <option value="" disabled>
                {m.companyTypePlaceholder}
              </option>
              {s.typesOffered.map((type) => (
                <option key={type} value={type}>
                  {messages.companyTypes[type]}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        <SearchSelect
          id="country"
          label={m.country}
          value={s.country ? { value: s.country.id, label: s.country.name } : null}
          search={searchCountry}
          onChange={(option) => setCompanyField('country', option ? { id: option.value, name: option.label } : null)}
          labels={{ ...searchLabels, placeholder: m.countryPlaceholder }}
          error={errors.country}
          required
        />
        <TextField id="contact-name" label={m.contactName} value={s.contactName} onChange={(v) => setCompanyField('contactName', v)} error={errors.contactName} maxLength={64} autoComplete="name" required />
        <PhoneField id="contact-tel" labels={m} lang={lang} loadAreaCodes={prepared ? loadPhoneCodesLazily : null} phone={{ areaId: s.areaId, callingCode: s.phoneCode, mobile: s.contactTel }} error={errors.contactTel} onAreaChange={setCompanyArea} onMobileChange={(v) => setCompanyField('contactTel', v)} required />
        <SearchSelect
          id="port"
          // Required (marked) for the types that need it, optional for the others; before a type is chosen the hint says which.
          label={portRequired || !s.companyType ? m.port : `${m.port} (${m.optional})`}
          value={s.port ? { value: s.port.id, label: `${s.port.name}${s.port.code ? `, ${s.port.code}` : ''}` } : null}
          search={searchPort}
          onChange={(option) => setCompanyField('port', option ? { id: option.value, name: option.label, code: option.detail } : null)}
          labels={{ ...searchLabels, placeholder: m.portPlaceholder }}
          error={errors.port}
          hint={m.portHint}
          required={portRequired}
        />
        <TextField
          id="company-name-cn"
          label={`${m.companyNameCn} (${m.optional})`}
          value={s.companyNameCn}
          onChange={(v) => setCompanyField('companyNameCn', v)}
          error={errors.companyNameCn}
          hint={counter(s.companyNameCn)}
          maxLength={COMPANY_NAME_MAX}
        />
        <TextField
          id="social-credit"
          label={m.creditCode}
          value={s.socialCredit}
          onChange={(v) => setCompanyField('socialCredit', v)}
          onBlur={() => void checkCompanyField('socialCredit')}
          error={errors.socialCredit}
          // A mainland code whose organisation code fails GB 11714 is sent all the same: a warning, not an error.
          hint={!errors.socialCredit && creditCodeWarned(s, usccRules) ? m.creditCodeOrganisationWarning : undefined}
          maxLength={64}
          autoCapitalize="characters"
          spellCheck={false}
          required
        />
        <TextField
          id="contact-email"
          label={m.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          value={s.contactEmail}
          onChange={(v) => setCompanyField('contactEmail', v)}
          error={errors.contactEmail}
          maxLength={254}
          required
        />
      </div>
      {s.country?.id === 'CN' && (
        // The registry check (issue 42): loaded once a mainland company is chosen, not with the page.
        <Suspense fallback={null}>
          <RegistryConsent
            words={m.registry}
            errors={{ legalRepName: errors.legalRepName, legalRepId: errors.legalRepId }}
            values={{ registryConsent: s.registryConsent, legalRepName: s.legalRepName, legalRepId: s.legalRepId }}
            onChange={(key, value) => setCompanyField(key, value as never)}
          />
        </Suspense>
      )}
      {s.country && s.country.id !== 'CN' && (
        <Suspense fallback={null}>
          <RegistryNumbers m={m} s={s} errors={errors} set={setCompanyField} check={checkCompanyField} upload={upload} />
        </Suspense>
      )}
      {upload('licence', m.licence, m.licenceHint, true)}
      {fuel && upload('gtc', m.gtc, m.gtcHint, true)}
      {upload('logo', `${m.logo} (${m.optional})`, m.logoHint, false)}

      {errors.form && (
        <p className="error form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={s.busy || Object.values(s.uploading).some(Boolean)}>
          {s.busy ? m.submitting : mode === 'fill' ? m.save : m.submit}
        </button>
        {mode === 'create' && (
          <a className="text-link" href="/enterprise_adm_and_staff">
            {m.back}
          </a>
        )}
      </div>
    </form>
  );
}
