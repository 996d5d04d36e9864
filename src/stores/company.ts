import { accountApi } from '../api/account';
import { onboardingApi } from '../api/onboarding';
import type { Messages } from '../i18n';
import { problem, problemOf, type Problem } from '../i18n/problem';
import { DEFAULT_AREA_CODE_ID, type PhoneCodeItem } from '../schemas/dictionaries';
import { stripSpacesAndCommas } from '../schemas/auth-rules';
import { hiddenCharacterIn } from '../schemas/display-text';
import {
  COMPANY_NAME_MAX,
  companyTypeFromDb,
  COMPANY_TYPES,
  FILLABLE_STATUSES,
  GTC_REQUIRED_TYPES,
  PORT_REQUIRED_TYPES,
  verificationStatusFromDb,
  ZHOUSHAN_PORT,
  type CompanyCreateRequest,
  type CompanyDetailAnswer,
  type CompanyType,
  type UploadedFile,
  type UploadKind,
} from '../schemas/onboarding';
import { realBrowser, SESSION_KEYS, type BrowserEnv } from './browser';
import { createForm } from './form';
import { collapse, currentLoginType, emailProblem, phoneProblem } from './onboarding';
import { readCookie } from '../lib/read-cookie';
import { parseSourceCookie, PORT_TYPE_COOKIE, SOURCE_COOKIE, ZHOUSHAN_SOURCE } from '../lib/source-origin';
import { discardUpload, keepUploads, releaseUploadsOnLeave, uploadFiles } from './uploads';
import { track } from '../lib/tracking';
import { COMPANY_TYPES_BY_IDENTITY } from '../schemas/company-types';

// The company form alone reads the source cookie (the join form does not load it: issue 31).
/** The SOURCE_FROM cookie names zhoushan, or the edge set the port-type cookie for it. */
export function isZhoushanVisit(): boolean {
  // Outside a browser (the stores' unit tests) there are no cookies.
  const cookies = typeof document === 'undefined' ? '' : document.cookie;
  if (readCookie(cookies, PORT_TYPE_COOKIE) === ZHOUSHAN_SOURCE) return true;
  return parseSourceCookie(readCookie(cookies, SOURCE_COOKIE)).source?.toLowerCase() === ZHOUSHAN_SOURCE;
}

/** The administrator form: /create_account and /fill_account. */

export type CompanyField =
  | 'companyNameEn'
  | 'companyNameCn'
  | 'companyType'
  | 'country'
  | 'contactName'
  | 'contactTel'
  | 'port'
  | 'socialCredit'
  | 'contactEmail'
  | UploadKind;

export interface Place {
  id: string;
  name: string;
  /** A port's UN/LOCODE, or the other-language name of a country. */
  code?: string;
}

const emptyCompany = {
  mode: 'create' as 'create' | 'fill',
  /** loading: fill_account is fetching the company; missing: nothing to fill; ready: the form shows. */
  phase: 'ready' as 'loading' | 'missing' | 'ready',
  companyId: '',
  companyNameEn: '',
  companyNameCn: '',
  companyType: '' as CompanyType | '',
  /** The types offered: those of the new-user dialog's answer, else all. */
  typesOffered: COMPANY_TYPES as readonly CompanyType[],
  country: null as Place | null,
  contactName: '',
  areaId: DEFAULT_AREA_CODE_ID,
  phoneCode: '+86',
  contactTel: '',
  port: null as Place | null,
  socialCredit: '',
  contactEmail: '',
  licence: [] as UploadedFile[],
  gtc: [] as UploadedFile[],
  logo: [] as UploadedFile[],
  uploading: { licence: false, gtc: false, logo: false } as Record<UploadKind, boolean>,
  /** What the platform asked for, when it asked for more information (fill only). */
  review: null as { status: string; reason: string | null; note: string | null } | null,
};
export type CompanyState = typeof emptyCompany;

const form = createForm<CompanyState, CompanyField>(emptyCompany, {
  // A gateway zod issue names the request's key; a business rule names its code.
  paths: {
    companyNameEn: 'companyNameEn',
    companyNameCn: 'companyNameCn',
    companyType: 'companyType',
    countryId: 'country',
    countryName: 'country',
    contactName: 'contactName',
    contactTel: 'contactTel',
    phoneCode: 'contactTel',
    portId: 'port',
    socialCredit: 'socialCredit',
    contactEmail: 'contactEmail',
    corporateCharter: 'licence',
    oilSupplyGtc: 'gtc',
    companyLogo: 'logo',
  },
  codes: {
    CO0001: 'companyNameEn',
    CO0002: 'port',
    CO0003: 'gtc',
    CO0004: 'country',
    CO0005: 'port',
    CO0007: 'logo',
    PH0001: 'contactTel',
    PH0002: 'contactEmail',
  },
  // The form-level alert points at the marked field, so a person at the submit button hears of it (a duplicate
  // company) and the page does not show the field's message twice (issue 33).
  alsoOnForm: { key: 'onboarding.errorSummary' },
  fieldOfValue: { areaId: 'contactTel', phoneCode: 'contactTel' },
  // Files are picked again: an upload of the ended session is not this session's to attach.
  keep: {
    name: 'company',
    values: ['companyNameEn', 'companyNameCn', 'companyType', 'country', 'contactName', 'areaId', 'phoneCode', 'contactTel', 'port', 'socialCredit', 'contactEmail'],
    when: (s) => s.phase === 'ready',
  },
});
export const $company = form.$values;
export const $companyErrors = form.$errors;
let env: BrowserEnv;

type EditableKey = Exclude<keyof CompanyState, 'mode' | 'phase' | 'companyId' | 'uploading' | 'licence' | 'gtc' | 'logo' | 'review'>;

export function setCompanyField<K extends EditableKey>(key: K, value: CompanyState[K]) {
  form.set(key, value);
  if (key === 'companyType') {
    // The GTC belongs to fuel suppliers only; the port rule depends on the type.
    $companyErrors.setKey('port', undefined);
    $companyErrors.setKey('gtc', undefined);
  }
}

export function setCompanyArea(item: PhoneCodeItem) {
  setCompanyField('areaId', item.id);
  setCompanyField('phoneCode', item.phoneCode);
}

/** /create_account: pre-fills from sign-in (company name, first port) and from a zhoushan origin. */
export function initCreateCompany(browser: BrowserEnv = realBrowser()) {
  env = browser;
  releaseUploadsOnLeave();
  form.reset();
  const name = env.storage.getItem(SESSION_KEYS.companyName);
  // The new-user dialog's name goes to the field of its script (issue 33): a Chinese name to the Chinese one.
  if (name) $company.setKey(HAN.test(name) ? 'companyNameCn' : 'companyNameEn', name.slice(0, COMPANY_NAME_MAX));
  const port = storedPort() ?? (isZhoushanVisit() ? { id: ZHOUSHAN_PORT.id, name: ZHOUSHAN_PORT.name, code: ZHOUSHAN_PORT.code } : null);
  if (port) $company.setKey('port', port);
  form.restoreKept();
  void offerTypesOfIdentity();
}

/** The new-user dialog's "principal or service provider" narrows the company types offered (issue 33). */
async function offerTypesOfIdentity() {
  const me = await onboardingApi.fetchMe();
  const identity = me.ok ? me.data.identity : null;
  if (!identity) return;
  const offered = COMPANY_TYPES_BY_IDENTITY[identity];
  const s = $company.get();
  $company.set({ ...s, typesOffered: offered, companyType: s.companyType && !offered.includes(s.companyType) ? '' : s.companyType });
}

function storedPort(): Place | null {
  try {
    const ports = JSON.parse(env.storage.getItem(SESSION_KEYS.ports) ?? 'null') as { id?: unknown; name?: unknown; code?: unknown }[] | null;
    const first = ports?.[0];
    if (first && typeof first.id === 'string' && typeof first.name === 'string') {
      return { id: first.id, name: first.name, code: typeof first.code === 'string' ? first.code : undefined };
    }
  } catch {
    // Nothing usable stored.
  }
  return null;
}

/**
 * /fill_account: loads the company (the query's `companyId`, else the one this person administers whose
 * application can still change) and fills the form with it.
 */
export async function initFillCompany(browser: BrowserEnv = realBrowser()) {
  env = browser;
  releaseUploadsOnLeave();
  form.reset({ mode: 'fill', phase: 'loading' });
  let companyId = new URLSearchParams(env.search).get('companyId') ?? env.storage.getItem(SESSION_KEYS.application) ?? '';
  if (!companyId) {
    const list = await accountApi.companyList();
    const own = list.ok
      ? list.data.find((c) => c.role === 'administrator' && (FILLABLE_STATUSES as readonly string[]).includes(verificationStatusFromDb(c.status) as never))
      : undefined;
    companyId = own?.companyId ?? '';
  }
  if (!companyId) return $company.setKey('phase', 'missing');
  const detail = await onboardingApi.companyDetail(companyId);
  if (!detail.ok) {
    $company.setKey('phase', 'missing');
    form.fail('form', problemOf(detail));
    return;
  }
  $company.set({ ...$company.get(), ...formFromDetail(detail.data), phase: 'ready' });
  // What was typed over the stored application before the session ended wins over it.
  form.restoreKept();
}

function formFromDetail(d: CompanyDetailAnswer): Partial<CompanyState> {
  const type = companyTypeFromDb(d.companyType);
  return {
    companyId: d.companyId,
    companyNameEn: d.companyNameEn,
    companyNameCn: d.companyNameCn ?? '',
    companyType: (COMPANY_TYPES as readonly string[]).includes(type) ? (type as CompanyType) : '',
    country: d.countryId && d.countryName ? { id: d.countryId, name: d.countryName } : null,
    contactName: d.contactName ?? '',
    phoneCode: d.phoneCode ?? '+86',
    areaId: d.phoneCode && d.phoneCode !== '+86' ? '' : DEFAULT_AREA_CODE_ID,
    contactTel: d.contactTel ?? '',
    port: d.portId && d.portName ? { id: d.portId, name: d.portName, code: d.portCode ?? undefined } : null,
    socialCredit: d.socialCredit ?? '',
    contactEmail: d.contactEmail ?? '',
    licence: d.corporateCharter,
    gtc: d.oilSupplyGtc ? [d.oilSupplyGtc] : [],
    logo: d.companyLogo ? [d.companyLogo] : [],
    review: d.review ? { status: d.status, reason: d.review.reason, note: d.review.note } : null,
  };
}

/** Picks files for an upload field: checked here first, then uploaded; problems show at the field. */
export async function addFiles(kind: UploadKind, files: File[]) {
  $companyErrors.setKey(kind, undefined);
  const done = await uploadFiles(kind, $company.get()[kind], files, (on) => $company.setKey('uploading', { ...$company.get().uploading, [kind]: on }));
  $company.setKey(kind, done.files);
  if (done.problems.length) form.fail(kind, done.problems);
}

export async function removeFile(kind: UploadKind, id: string) {
  $company.setKey(kind, $company.get()[kind].filter((file) => file.id !== id));
  $companyErrors.setKey(kind, undefined);
  await discardUpload(id);
}

/** Chinese characters (CJK ideographs), which belong in the Chinese name, not the English one. */
const HAN = /\p{Script=Han}/u;

/** Every rule for the administrator form, with its problem; true when the form may be sent. */
export function validateCompany(): boolean {
  const s = $company.get();
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
  const phone = phoneProblem(s.areaId, s.contactTel);
  if (phone) errors.contactTel = phone;
  if (s.companyType && PORT_REQUIRED_TYPES.includes(s.companyType) && !s.port) errors.port = e('portRequired');
  if (!collapse(s.socialCredit)) errors.socialCredit = e('creditCodeRequired');
  const email = emailProblem(s.contactEmail);
  if (email) errors.contactEmail = email;
  if (!s.licence.length) errors.licence = e('licenceRequired');
  if (s.companyType && GTC_REQUIRED_TYPES.includes(s.companyType) && !s.gtc.length) errors.gtc = e('gtcRequired');
  return form.check(errors);
}

function companyRequest(): CompanyCreateRequest {
  const s = $company.get();
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
  };
}

/** Submit: create or fill, then the completion page (a filled application is looked at again). */
export function submitCompany() {
  if ($company.get().busy) return Promise.resolve();
  $companyErrors.set({});
  if (!validateCompany()) return Promise.resolve(void form.fail('form', { key: 'onboarding.errorSummary' }));
  if (Object.values($company.get().uploading).some(Boolean)) return Promise.resolve();
  return form.run(async () => {
    const s = $company.get();
    const result = s.mode === 'fill' ? await onboardingApi.fillCompany({ ...companyRequest(), companyId: s.companyId }) : await onboardingApi.createCompany(companyRequest());
    if (!result.ok) return form.failure(result);
    if (s.mode !== 'fill') track('company_created');
    keepUploads([...s.licence, ...s.gtc, ...s.logo].map((file) => file.id));
    env.storage.setItem(SESSION_KEYS.application, result.data.companyId);
    env.storage.removeItem(SESSION_KEYS.companyName);
    env.storage.removeItem(SESSION_KEYS.ports);
    const query = new URLSearchParams({ userType: '2', loginType: String(await currentLoginType(env.search)), ifJumpToSaas: 'false' });
    form.leaving();
    env.navigate(`/completion_of_application?${query}`);
  });
}
