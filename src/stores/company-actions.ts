import { onboardingApi } from '../api/onboarding';
import { registryApi } from '../api/registry';
import { REGISTRY_CONSENT_VERSION, type RegistryVerdict } from '../schemas/registry';
import type { Messages } from '../i18n';
import { problem, problemOf, type Problem } from '../i18n/problem';
import { track } from '../lib/tracking';
import { stripSpacesAndCommas } from '../schemas/auth-rules';
import { COMPANY_NAME_MAX, GTC_REQUIRED_TYPES, HAN, PORT_REQUIRED_TYPES } from '../schemas/company-form-rules';
import { hiddenCharacterIn } from '../schemas/display-text';
import { checkImoCompanyNumber, checkUscc } from '../schemas/registry-numbers';
import type { CompanyType } from '../schemas/company-status';
import type { CompanyCreateRequest } from '../schemas/onboarding';
import { SESSION_KEYS } from './browser';
import type { CompanyContext, CompanyField, CompanyState } from './company';
import { collapse, currentLoginType, emailProblem, phoneProblem } from './onboarding';

/**
 * A mainland company's credit code by GB 32100-2015 (issue 42): what is wrong with it, in the visitor's words, or
 * null (empty, sound, or not a mainland company: elsewhere it is the local registration number, free text).
 */
export function creditCodeProblem(s: Pick<CompanyState, 'country' | 'socialCredit'>): Problem | null {
  if (s.country?.id !== 'CN' || !s.socialCredit.trim()) return null;
  const verdict = checkUscc(s.socialCredit);
  if (verdict.ok) return null;
  if (verdict.problem === 'length') return { key: 'onboarding.errors.creditCodeLength', values: { n: String(verdict.length) } };
  if (verdict.problem === 'character') return { key: 'onboarding.errors.creditCodeCharacter', values: { position: String(verdict.position), character: verdict.character } };
  return { key: 'onboarding.errors.creditCodeCheck', values: { expected: verdict.expected } };
}

/** A company outside the mainland: it may give an IMO company number, a national registry number and their evidence (issue 42). */
const overseas = (s: Pick<CompanyState, 'country'>) => Boolean(s.country && s.country.id !== 'CN');

/**
 * An overseas company's IMO company number (issue 42): what is wrong with it, in the visitor's words, or null (empty,
 * sound, or a mainland company, which has none). The gateway checks it again (RG0004, RG0007).
 */
export function imoNumberProblem(s: Pick<CompanyState, 'country' | 'imoCompanyNumber'>): Problem | null {
  if (!overseas(s) || !s.imoCompanyNumber?.trim()) return null;
  const verdict = checkImoCompanyNumber(s.imoCompanyNumber);
  if (verdict.ok) return null;
  if (verdict.problem === 'format') return { key: 'onboarding.errors.imoCompanyNumberMalformed' };
  return { key: 'onboarding.errors.imoCompanyNumberCheck', values: { expected: verdict.expected } };
}

/** The problem of a field checked as it is left (stores/company.ts checkCompanyField). */
export const fieldProblem = (field: 'socialCredit' | 'imoCompanyNumber', s: CompanyState) => (field === 'socialCredit' ? creditCodeProblem(s) : imoNumberProblem(s));

/** The overseas fields a gateway refusal may name (their paths are not among the first paint's: stores/company.ts). */
const REGISTRY_FIELDS = ['imoCompanyNumber', 'nationalRegistryNumber', 'registryEvidence'] as const;
function registryFieldOf(failure: { data?: unknown }): (typeof REGISTRY_FIELDS)[number] | undefined {
  const data = failure.data as { path?: unknown } | { path?: unknown }[] | null | undefined;
  const path = Array.isArray(data) ? data[0]?.path : data?.path;
  const first = typeof path === 'string' ? path.split('.')[0] : Array.isArray(path) ? String(path[0]) : '';
  return REGISTRY_FIELDS.find((field) => field === first);
}

/**
 * The company form's searches and sends with the onboarding contracts they parse: the country and port searches,
 * the checks and the submit. stores/company.ts loads this on the form's first focus or
 * pointer, or on the first call, and passes its state (nothing is imported from there but types, so the form's store
 * stays in the island's own chunk: issue 31).
 */

export const searchCountry = (term: string) => onboardingApi.searchCountry(term);
export const searchPort = (term: string) => onboardingApi.searchPort(term);

/** A mainland identity card number (GB 11643) as the gateway reads it: 17 digits and a digit or X. */
const ID_NUMBER = /^\d{17}[\dX]$/;

/**
 * What the applicant is told of the registry check on the next page (SESSION_KEYS.registryOutcome): `match`, `review`
 * (the registry differs, does not know it or says it is not operating: an operator looks at it with the application)
 * or `later` (no provider answered, or the call failed: an operator checks it). The check never stops the application.
 */
export type RegistryOutcome = 'match' | 'review' | 'later';
export function registryOutcome(verdict: RegistryVerdict | null): RegistryOutcome {
  if (verdict === 'match') return 'match';
  if (verdict === null || verdict === 'notChecked') return 'later';
  return 'review';
}

/** The registry check after the company is saved: its outcome in words, never a refusal of the application. */
async function checkRegistry(s: CompanyState, companyId: string): Promise<RegistryOutcome | null> {
  if (s.country?.id !== 'CN' || !s.registryConsent) return null;
  const result = await registryApi
    .check({ companyId, consentVersion: REGISTRY_CONSENT_VERSION, legalRepName: collapse(s.legalRepName), legalRepId: s.legalRepId })
    .catch(() => null);
  return registryOutcome(result?.ok ? result.data.verdict : null);
}

/** Every rule for the administrator form, with its problem; true when the form may be sent. */
function validateCompany(ctx: CompanyContext): boolean {
  const s = ctx.form.$values.get();
  const e = (key: keyof Messages['onboarding']['errors']) => problem(`onboarding.errors.${key}`);
  const errors: Partial<Record<CompanyField, Problem>> = {};
  const nameEn = collapse(s.companyNameEn);
  if (!nameEn) errors.companyNameEn = e('companyNameEnRequired');
  else if (nameEn.length > COMPANY_NAME_MAX) errors.companyNameEn = e('companyNameTooLong');
  else if (hiddenCharacterIn(nameEn, { emoji: false })) errors.companyNameEn = e('companyNameHiddenCharacters');
  else if (HAN.test(nameEn)) errors.companyNameEn = e('companyNameEnLatin');
  if (collapse(s.companyNameCn).length > COMPANY_NAME_MAX) errors.companyNameCn = e('companyNameTooLong');
  else if (hiddenCharacterIn(collapse(s.companyNameCn), { emoji: false })) errors.companyNameCn = e('companyNameHiddenCharacters');
  if (!s.companyType) errors.companyType = e('companyTypeRequired');
  if (!s.country) errors.country = e('countryRequired');
  if (!collapse(s.contactName)) errors.contactName = e('contactNameRequired');
  else if (hiddenCharacterIn(collapse(s.contactName))) errors.contactName = { key: 'errors.hiddenCharacters' };
  // The company's contact, not the person filling the form in, may answer at this number.
  const phone = phoneProblem(s.areaId, s.contactTel, 'onboarding.errors.contactPhoneRequired');
  if (phone) errors.contactTel = phone;
  if (s.companyType && PORT_REQUIRED_TYPES.includes(s.companyType) && !s.port) errors.port = e('portRequired');
  if (!collapse(s.socialCredit)) errors.socialCredit = e('creditCodeRequired');
  else {
    const code = creditCodeProblem(s);
    if (code) errors.socialCredit = code;
  }
  const email = emailProblem(s.contactEmail);
  if (email) errors.contactEmail = email;
  // The registry check is the applicant's choice; once chosen, its two fields are needed (issue 42).
  if (s.country?.id === 'CN' && s.registryConsent) {
    const repName = collapse(s.legalRepName);
    if (!repName) errors.legalRepName = e('legalRepNameRequired');
    else if (hiddenCharacterIn(repName)) errors.legalRepName = { key: 'errors.hiddenCharacters' };
    const repId = s.legalRepId.replace(/\s/g, '').toUpperCase();
    if (!repId) errors.legalRepId = e('legalRepIdRequired');
    else if (!ID_NUMBER.test(repId)) errors.legalRepId = e('legalRepIdMalformed');
  }
  // An overseas company's registry numbers are optional; an IMO company number given must be sound (issue 42).
  const imo = imoNumberProblem(s);
  if (imo) errors.imoCompanyNumber = imo;
  if (overseas(s) && hiddenCharacterIn(collapse(s.nationalRegistryNumber ?? ''))) errors.nationalRegistryNumber = { key: 'errors.hiddenCharacters' };
  if (!s.licence.length) errors.licence = e('licenceRequired');
  if (s.companyType && GTC_REQUIRED_TYPES.includes(s.companyType) && !s.gtc.length) errors.gtc = e('gtcRequired');
  return ctx.form.check(errors);
}

function companyRequest(s: CompanyState): CompanyCreateRequest {
  const type = s.companyType as CompanyType;
  return {
    companyNameEn: collapse(s.companyNameEn),
    companyNameCn: collapse(s.companyNameCn) || undefined,
    companyType: type,
    countryId: s.country!.id,
    countryName: s.country!.name,
    contactName: collapse(s.contactName),
    contactTel: stripSpacesAndCommas(s.contactTel),
    phoneCode: s.phoneCode,
    portId: s.port?.id,
    portName: s.port?.name,
    portCode: s.port?.code,
    socialCredit: collapse(s.socialCredit),
    contactEmail: stripSpacesAndCommas(s.contactEmail),
    corporateCharter: s.licence.map((f) => f.id),
    // The server refuses a GTC for other types: a file picked before the type changed is not sent.
    oilSupplyGtc: GTC_REQUIRED_TYPES.includes(type) ? s.gtc[0]?.id : undefined,
    companyLogo: s.logo[0]?.id,
    // A mainland company sends none of an overseas company's numbers (the gateway would ignore them).
    imoCompanyNumber: (overseas(s) && s.imoCompanyNumber?.trim()) || undefined,
    nationalRegistryNumber: (overseas(s) && collapse(s.nationalRegistryNumber ?? '')) || undefined,
    registryEvidence: overseas(s) ? s.registryEvidence.map((f) => f.id) : undefined,
  };
}

/** Submit: create or fill, then the completion page (a filled application is looked at again). */
export function submitCompany(ctx: CompanyContext) {
  const { form, env } = ctx;
  if (form.$values.get().busy) return Promise.resolve();
  form.$errors.set({});
  if (!validateCompany(ctx)) return Promise.resolve(void form.fail('form', { key: 'onboarding.errorSummary' }));
  if (Object.values(form.$values.get().uploading).some(Boolean)) return Promise.resolve();
  return form.run(async () => {
    const s = form.$values.get();
    const result = s.mode === 'fill' ? await onboardingApi.fillCompany({ ...companyRequest(s), companyId: s.companyId }) : await onboardingApi.createCompany(companyRequest(s));
    if (!result.ok) {
      const field = registryFieldOf(result);
      if (!field) return form.failure(result);
      form.fail(field, problemOf(result));
      return void form.fail('form', { key: 'onboarding.errorSummary' });
    }
    if (s.mode !== 'fill') track('company_created');
    const outcome = await checkRegistry(s, result.data.companyId);
    if (outcome) env.storage.setItem(SESSION_KEYS.registryOutcome, outcome);
    else env.storage.removeItem(SESSION_KEYS.registryOutcome);
    // The legal representative's details leave the page's memory once sent.
    form.$values.setKey('legalRepId', '');
    form.$values.setKey('legalRepName', '');
    ctx.keepUploads([...s.licence, ...s.gtc, ...s.logo, ...(overseas(s) ? s.registryEvidence : [])].map((file) => file.id));
    env.storage.setItem(SESSION_KEYS.application, result.data.companyId);
    env.storage.removeItem(SESSION_KEYS.companyName);
    env.storage.removeItem(SESSION_KEYS.ports);
    const query = new URLSearchParams({ userType: '2', loginType: String(await currentLoginType(env.search)), ifJumpToSaas: 'false' });
    form.leaving();
    env.navigate(`/completion_of_application?${query}`);
  });
}
