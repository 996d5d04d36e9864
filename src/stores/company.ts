import * as ERR from '../schemas/error-names';
import { fetchMeContact } from '../api/me-contact';
import { CONNECTION_ERROR, NETWORK_ERROR, type ApiResult } from '../api/result';
import type { Problem } from '../i18n/problem';
import { DEFAULT_AREA_CODE_ID } from '../schemas/auth-rules';
import type { PhoneCodeItem } from '../schemas/dictionaries';
import { COMPANY_NAME_MAX, HAN, ZHOUSHAN_PORT } from '../schemas/company-form-rules';
import { COMPANY_TYPES, type CompanyType } from '../schemas/company-status';
import type { CountryItem, Port, UploadedFile, UploadKind } from '../schemas/onboarding';
import { realBrowser, SESSION_KEYS, type BrowserEnv } from './browser';
import { createForm } from './form';
import { readCookie } from '../lib/read-cookie';
import { atom } from 'nanostores';
import { loadOnce } from '../lib/load-once';
import { parseSourceCookie, PORT_TYPE_COOKIE, SOURCE_COOKIE, ZHOUSHAN_SOURCE } from '../lib/source-origin';
import { discardUpload, keepUploads, uploadFiles } from './uploads';
import { COMPANY_TYPES_BY_IDENTITY } from '../schemas/company-types';

// The company form alone reads the source cookie (the join form does not load it: issue 31).
/** The SOURCE_FROM cookie names zhoushan, or the edge set the port-type cookie for it. */
export function isZhoushanVisit(): boolean {
  // Outside a browser (the stores' unit tests) there are no cookies.
  const cookies = typeof document === 'undefined' ? '' : document.cookie;
  if (readCookie(cookies, PORT_TYPE_COOKIE) === ZHOUSHAN_SOURCE) return true;
  return parseSourceCookie(readCookie(cookies, SOURCE_COOKIE)).source?.toLowerCase() === ZHOUSHAN_SOURCE;
}

/**
 * The administrator form: /create_account and /fill_account. The form's state, its prefill and its edits are here.
 * The country and port searches, the checks and the submit, with the onboarding contracts they parse, are in
 * company-actions.ts, which loads on the form's first focus or pointer, or on the first call (issue 31), as the join
 * form's do; /fill_account's read of its company is in company-fill.ts, loaded in fill mode only.
 */

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
  | 'legalRepName'
  | 'legalRepId'
  | 'imoCompanyNumber'
  | 'nationalRegistryNumber'
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
  /**
   * The registry check (issue 42, a mainland company only): the applicant's consent and the legal representative's
   * name and identity card number, sent once to POST registry/check after the company is saved; never kept (not
   * in the kept form either).
   */
  registryConsent: false,
  legalRepName: '',
  legalRepId: '',
  licence: [] as UploadedFile[],
  gtc: [] as UploadedFile[],
  logo: [] as UploadedFile[],
  /** An overseas company's registry evidence (issue 42): its field is in RegistryNumbers.tsx, loaded for such a company. */
  registryEvidence: [] as UploadedFile[],
  uploading: { licence: false, gtc: false, logo: false } as Record<UploadKind, boolean>,
  /** What the platform asked for, when it asked for more information (fill only). */
  review: null as { status: string; reason: string | null; note: string | null; text: string } | null,
};
/**
 * An overseas company's IMO company number and national registry number (issue 42) are not among the initial values:
 * their fields (RegistryNumbers.tsx) and checks (company-actions.ts) load only once a country other than CN is
 * chosen, and add nothing to the form's first paint.
 */
export type CompanyState = typeof emptyCompany & { imoCompanyNumber?: string; nationalRegistryNumber?: string };

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
    legalRepName: 'legalRepName',
    legalRepId: 'legalRepId',
    corporateCharter: 'licence',
    oilSupplyGtc: 'gtc',
    companyLogo: 'logo',
  },
  codes: {
    [ERR.COMPANY_ALREADY_EXISTS]: 'companyNameEn',
    [ERR.SERVICED_PORT_MISSING]: 'port',
    [ERR.FUEL_GTC_MISMATCH]: 'gtc',
    [ERR.COUNTRY_NOT_LISTED]: 'country',
    [ERR.PORT_NOT_LISTED]: 'port',
    [ERR.LOGO_NOT_IMAGE]: 'logo',
    [ERR.PHONE_INVALID]: 'contactTel',
    [ERR.EMAIL_INVALID]: 'contactEmail',
    [ERR.USCC_CHECK_CHARACTER_WRONG]: 'socialCredit',
    [ERR.USCC_MALFORMED]: 'socialCredit',
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

/** A load of the form's code that failed: said as a call without an answer is, in the page's words. */
const noConnection = (): Problem => ({ code: typeof navigator !== 'undefined' && !navigator.onLine ? NETWORK_ERROR : CONNECTION_ERROR });
/** What company-actions.ts works on: the form, the browser, the uploads it hands to the company. */
const companyContext = {
  form,
  get env() {
    return env;
  },
  noConnection,
  keepUploads,
};
export type CompanyContext = typeof companyContext;

/** The reads, checks and submit: loaded once; every caller waits for the same load. A failed load is tried again. */
const loadActions = loadOnce(() => import('./company-actions'));
const noActions = () => undefined;
/** Starts loading the searches, checks and submit before they are needed (the form's first focus or pointer). */
export const prepareCompany = () => void loadActions().catch(noActions);

type EditableKey = Exclude<keyof CompanyState, 'mode' | 'phase' | 'companyId' | 'uploading' | UploadKind | 'review'>;

export function setCompanyField<K extends EditableKey>(key: K, value: CompanyState[K]) {
  form.set(key, value);
  if (key === 'companyType') {
    // The GTC belongs to fuel suppliers only; the port rule depends on the type.
    form.clear('port');
    form.clear('gtc');
  }
}

export function setCompanyArea(item: PhoneCodeItem) {
  setCompanyField('areaId', item.id);
  setCompanyField('phoneCode', item.phoneCode);
}

/**
 * The credit code's rules (schemas/registry-numbers.ts, GB 32100-2015 and GB 11714): loaded once a mainland code is
 * there to check, since most companies the form completes have none yet (issue 46: 0.6 KB of a page at its budget).
 * The submit's checks (company-actions.ts) read them directly.
 */
export const $usccRules = atom<typeof import('../schemas/registry-numbers') | null>(null);
const loadUsccRules = loadOnce(() => import('../schemas/registry-numbers').then((rules) => ($usccRules.set(rules), rules)));
$company.subscribe((s) => {
  if (s.country?.id === 'CN' && s.socialCredit.trim()) loadUsccRules().catch(noActions);
});

/** A sound mainland code whose organisation code (characters 9–17) fails GB 11714: a warning beside the field. */
export function creditCodeWarned(s: Pick<CompanyState, 'country' | 'socialCredit'>, rules: typeof import('../schemas/registry-numbers') | null) {
  if (s.country?.id !== 'CN' || !rules) return false;
  const verdict = rules.checkUscc(s.socialCredit);
  return verdict.ok && !verdict.organisationCodeOk;
}

/**
 * Leaving the credit code field, or an overseas company's IMO company number: its problem shows at once (the whole
 * form is checked again at submit).
 */
export async function checkCompanyField(field: 'socialCredit' | 'imoCompanyNumber') {
  const actions = await loadActions().catch(noActions);
  const found = actions?.fieldProblem(field, $company.get());
  if (found) form.fail(field, found);
}

/** /create_account: pre-fills from sign-in (company name, first port) and from a zhoushan origin. */
export function initCreateCompany(browser: BrowserEnv = realBrowser()) {
  env = browser;
  form.reset();
  const name = env.storage.getItem(SESSION_KEYS.companyName);
  // The new-user dialog's name goes to the field of its script (issue 33): a Chinese name to the Chinese one.
  if (name) $company.setKey(HAN.test(name) ? 'companyNameCn' : 'companyNameEn', name.slice(0, COMPANY_NAME_MAX));
  const port = storedPort() ?? (isZhoushanVisit() ? { id: ZHOUSHAN_PORT.id, name: ZHOUSHAN_PORT.name, code: ZHOUSHAN_PORT.code } : null);
  if (port) $company.setKey('port', port);
  form.restoreKept();
  void offerTypesOfIdentity();
}

/**
 * What the person told us once is not asked again: the new-user dialog's "principal or service provider" narrows the
 * company types offered (issue 33); the phone they signed in with and their name fill the empty contact fields, as
 * the join form does (issue 47). Anything already typed stays.
 */
async function offerTypesOfIdentity() {
  const me = await fetchMeContact();
  if (!me.ok) return;
  const contact = $company.get();
  const filled = { ...contact };
  if (!contact.contactName && me.data.realName.trim()) filled.contactName = me.data.realName.trim();
  if (!contact.contactTel && me.data.registerMobile) {
    filled.contactTel = me.data.registerMobile;
    if (me.data.userPhoneCode) filled.phoneCode = me.data.userPhoneCode;
    if (me.data.userPhoneCodeValue) filled.areaId = me.data.userPhoneCodeValue;
  }
  $company.set(filled);
  const identity = me.data.identity;
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
 * application can still change) and fills the form with it (company-fill.ts, loaded now: the form shows the
 * company's details).
 */
export async function initFillCompany(browser: BrowserEnv = realBrowser()) {
  env = browser;
  form.reset({ mode: 'fill', phase: 'loading' });
  // A failed load is said where the form would be ("check your connection"); a reload tries again.
  const loaded = await import('./company-fill').catch(noActions);
  if (!loaded) {
    $company.setKey('phase', 'missing');
    form.fail('form', noConnection());
    return;
  }
  await loaded.loadFillCompany(companyContext);
}

/** Picks files for an upload field: checked here first, then uploaded; problems show at the field. */
export async function addFiles(kind: UploadKind, files: File[]) {
  form.clear(kind);
  const done = await uploadFiles(kind, $company.get()[kind], files, (on) => $company.setKey('uploading', { ...$company.get().uploading, [kind]: on }));
  $company.setKey(kind, done.files);
  if (done.problems.length) form.fail(kind, done.problems);
}

export async function removeFile(kind: UploadKind, id: string) {
  $company.setKey(kind, $company.get()[kind].filter((file) => file.id !== id));
  form.clear(kind);
  await discardUpload(id);
}

/** A country or port search (company-actions.ts); undefined when its code could not load (said at the form). */
async function search<T>(find: (actions: typeof import('./company-actions')) => Promise<ApiResult<T[]>>): Promise<ApiResult<T[]> | undefined> {
  const loaded = await loadActions().catch(noActions);
  if (!loaded) return void form.fail('form', noConnection());
  return find(loaded);
}
export const searchCountries = (term: string) => search<CountryItem>((loaded) => loaded.searchCountry(term));
export const searchPorts = (term: string) => search<Port>((loaded) => loaded.searchPort(term));

/**
 * Checks the form and sends it. A doubled click waits for the same load, and the first call then marks the form
 * busy before the second runs, so one request is sent.
 */
export async function submitCompany() {
  const loaded = await loadActions().catch(noActions);
  // The checks could not load: said at the form as a call without an answer is, in the page's words.
  if (!loaded) return void form.fail('form', noConnection());
  return loaded.submitCompany(companyContext);
}
