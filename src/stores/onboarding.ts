import Cookies from 'js-cookie';
import { map } from 'nanostores';
import { authApi } from '../api/auth';
import { NETWORK_ERROR, type ApiResult } from '../api/client';
import { onboardingApi } from '../api/onboarding';
import type { Messages } from '../i18n';
import { APPLICATION_KEY } from './account';
import { parseSourceCookie, PORT_TYPE_COOKIE, SOURCE_COOKIE, ZHOUSHAN_SOURCE } from '../lib/source-origin';
import { emailSchema, stripSpacesAndCommas } from '../schemas/auth';
import { DEFAULT_AREA_CODE_ID } from '../schemas/dictionaries';
import { contentTypeOfExtension } from '../schemas/file-types';
import {
  COMPANY_NAME_MAX,
  companyTypeFromDb,
  COMPANY_TYPES,
  FILLABLE_STATUSES,
  GTC_REQUIRED_TYPES,
  IMAGE_EXTENSIONS,
  INVITATION_LENGTH,
  invitationCodeSchema,
  isoDateSchema,
  PORT_REQUIRED_TYPES,
  UPLOAD_EXTENSIONS,
  UPLOAD_LIMITS,
  verificationStatusFromDb,
  ZHOUSHAN_PORT,
  type CompanyCreateRequest,
  type CompanyDetailAnswer,
  type CompanyType,
  type UploadedFile,
  type UploadKind,
} from '../schemas/onboarding';

export type OnboardingMessages = Pick<Messages, 'onboarding' | 'upload' | 'errors'>;
let t: OnboardingMessages;

/** Spec 5: the mainland mobile pattern applies only with the default (mainland) area code. */
const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;

// ---------------------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------------------

/** loginType for the completion page: the query's, else 1 when the person has a registered mobile. */
export async function currentLoginType(): Promise<1 | 2> {
  const fromQuery = new URLSearchParams(location.search).get('loginType');
  if (fromQuery === '1' || fromQuery === '2') return Number(fromQuery) as 1 | 2;
  const me = await onboardingApi.fetchMe();
  return me.ok && !me.data.registerMobile ? 2 : 1;
}

const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');
const failureText = (result: Extract<ApiResult<unknown>, { ok: false }>) =>
  result.code === NETWORK_ERROR ? t.errors.network : result.message || t.errors.generic;

function phoneProblem(areaId: string, raw: string): string | undefined {
  const mobile = stripSpacesAndCommas(raw);
  if (!mobile) return t.onboarding.errors.phoneRequired;
  const pattern = areaId === DEFAULT_AREA_CODE_ID ? MAINLAND_MOBILE : /^\d{4,15}$/;
  return pattern.test(mobile) ? undefined : t.onboarding.errors.phoneInvalid;
}

function emailProblem(raw: string): string | undefined {
  if (!stripSpacesAndCommas(raw)) return t.onboarding.errors.emailRequired;
  return emailSchema.safeParse(raw).success ? undefined : t.onboarding.errors.emailInvalid;
}

// ---------------------------------------------------------------------------------------------------------
// The administrator form: /create_account and /fill_account
// ---------------------------------------------------------------------------------------------------------

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
  | 'licence'
  | 'gtc'
  | 'logo'
  | 'form';

export interface Place {
  id: string;
  name: string;
  /** A port's UN/LOCODE, or the other-language name of a country. */
  code?: string;
}

/** The files each upload field holds, and the rule it checks before uploading (spec 5). */
export const uploadRules: Record<UploadKind, { max: number; extensions: readonly string[] }> = {
  licence: { max: UPLOAD_LIMITS.maxLicenceFiles, extensions: UPLOAD_EXTENSIONS },
  gtc: { max: 1, extensions: UPLOAD_EXTENSIONS.filter((e) => e !== 'csv') },
  logo: { max: 1, extensions: IMAGE_EXTENSIONS },
};
/** The `accept` attribute of a field: extensions and MIME types. */
export const acceptFor = (kind: UploadKind) =>
  [...new Set(uploadRules[kind].extensions.flatMap((e) => [`.${e}`, contentTypeOfExtension(e) ?? '']))].filter(Boolean).join(',');

const emptyCompany = {
  mode: 'create' as 'create' | 'fill',
  /** loading: fill_account is fetching the company; missing: nothing to fill; ready: the form shows. */
  phase: 'ready' as 'loading' | 'missing' | 'ready',
  companyId: '',
  companyNameEn: '',
  companyNameCn: '',
  companyType: '' as CompanyType | '',
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
  busy: false,
};
export type CompanyState = typeof emptyCompany;

export const $company = map<CompanyState>({ ...emptyCompany });
export const $companyErrors = map<Partial<Record<CompanyField, string>>>({});
/** Files uploaded on this page and not yet part of a company: removed from R2 when taken off the form. */
const freshUploads = new Set<string>();

/**
 * Leaving the form without sending it leaves no orphaned uploads: the page asks the gateway to delete them
 * as it goes (a beacon carries the session cookie and survives the unload).
 */
function releaseUploadsOnLeave() {
  addEventListener('pagehide', () => {
    if (!freshUploads.size) return;
    const ids = [...freshUploads].slice(0, UPLOAD_LIMITS.maxFilesPerRequest * 2);
    for (let i = 0; i < ids.length; i += UPLOAD_LIMITS.maxFilesPerRequest) {
      const body = JSON.stringify({ ids: ids.slice(i, i + UPLOAD_LIMITS.maxFilesPerRequest) });
      try {
        navigator.sendBeacon('/api/agg-web/file/deleteFile', new Blob([body], { type: 'application/json' }));
      } catch {
        // Best effort: the gateway's own clean-up of unattached uploads is the backstop.
      }
    }
    freshUploads.clear();
  });
}
let releasing = false;

type EditableKey = Exclude<keyof CompanyState, 'mode' | 'phase' | 'companyId' | 'uploading' | 'busy' | 'licence' | 'gtc' | 'logo'>;

export function setCompanyField<K extends EditableKey>(key: K, value: CompanyState[K]) {
  $company.setKey(key, value as never);
  const field = (key === 'areaId' || key === 'phoneCode' ? 'contactTel' : key) as CompanyField;
  if ($companyErrors.get()[field]) $companyErrors.setKey(field, undefined);
  if (key === 'companyType') {
    // The GTC belongs to fuel suppliers only; the port rule depends on the type.
    $companyErrors.setKey('port', undefined);
    $companyErrors.setKey('gtc', undefined);
  }
}

/** /create_account: pre-fills from sign-in (company name, first port) and from a zhoushan origin. */
export function initCreateCompany(messages: OnboardingMessages) {
  t = messages;
  if (!releasing) releaseUploadsOnLeave();
  releasing = true;
  $company.set({ ...emptyCompany });
  $companyErrors.set({});
  const name = sessionStorage.getItem('companyName');
  if (name) $company.setKey('companyNameEn', name.slice(0, COMPANY_NAME_MAX));
  const port = storedPort() ?? (isZhoushanVisit() ? { id: ZHOUSHAN_PORT.id, name: ZHOUSHAN_PORT.name, code: ZHOUSHAN_PORT.code } : null);
  if (port) $company.setKey('port', port);
}

function storedPort(): Place | null {
  try {
    const ports = JSON.parse(sessionStorage.getItem('ports') ?? 'null') as { id?: unknown; name?: unknown; code?: unknown }[] | null;
    const first = ports?.[0];
    if (first && typeof first.id === 'string' && typeof first.name === 'string') {
      return { id: first.id, name: first.name, code: typeof first.code === 'string' ? first.code : undefined };
    }
  } catch {
    // Nothing usable stored.
  }
  return null;
}

/** Spec 2/3: the SOURCE_FROM cookie names zhoushan, or the edge set the port-type cookie for it. */
export function isZhoushanVisit(): boolean {
  if (Cookies.get(PORT_TYPE_COOKIE) === ZHOUSHAN_SOURCE) return true;
  return parseSourceCookie(Cookies.get(SOURCE_COOKIE)).source?.toLowerCase() === ZHOUSHAN_SOURCE;
}

/**
 * /fill_account: loads the company (the query's `companyId`, else the one this person administers whose
 * application can still change) and fills the form with it.
 */
export async function initFillCompany(messages: OnboardingMessages) {
  t = messages;
  if (!releasing) releaseUploadsOnLeave();
  releasing = true;
  $company.set({ ...emptyCompany, mode: 'fill', phase: 'loading' });
  $companyErrors.set({});
  let companyId = new URLSearchParams(location.search).get('companyId') ?? sessionStorage.getItem(APPLICATION_KEY) ?? '';
  if (!companyId) {
    const list = await authApi.companyList();
    const own = list.ok
      ? list.data.find((c) => c.role === 'administrator' && (FILLABLE_STATUSES as readonly string[]).includes(verificationStatusFromDb(c.status) as never))
      : undefined;
    companyId = own?.companyId ?? '';
  }
  if (!companyId) return $company.setKey('phase', 'missing');
  const detail = await onboardingApi.companyDetail(companyId);
  if (!detail.ok) {
    $company.setKey('phase', 'missing');
    $companyErrors.setKey('form', failureText(detail));
    return;
  }
  $company.set({ ...$company.get(), ...formFromDetail(detail.data), phase: 'ready' });
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
  };
}

/** Picks files for an upload field: checked here first (type by name and MIME, size, count), then uploaded. */
export async function addFiles(kind: UploadKind, files: File[]) {
  const state = $company.get();
  const rule = uploadRules[kind];
  const u = t.upload;
  $companyErrors.setKey(kind, undefined);
  if (state[kind].length + files.length > rule.max) {
    $companyErrors.setKey(kind, u.tooMany.replace('{max}', String(rule.max)));
    return;
  }
  const problems: string[] = [];
  const accepted = files.filter((file) => {
    const reason = fileProblem(file, kind);
    if (reason) problems.push(u.refused.replace('{name}', file.name).replace('{reason}', reason));
    return !reason;
  });
  if (accepted.length) {
    $company.setKey('uploading', { ...$company.get().uploading, [kind]: true });
    const result = await onboardingApi.uploadFiles(accepted, kind);
    $company.setKey('uploading', { ...$company.get().uploading, [kind]: false });
    if (result.ok) {
      for (const file of result.data) freshUploads.add(file.id);
      $company.setKey(kind, [...$company.get()[kind], ...result.data]);
    } else {
      problems.push(failureText(result));
    }
  }
  if (problems.length) $companyErrors.setKey(kind, problems.join(' '));
}

/** The browser's check (the server checks the content again): a clear message, or undefined. */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>, kind: UploadKind): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const allowed = uploadRules[kind].extensions;
  const mimeOk = !file.type || allowed.some((e) => contentTypeOfExtension(e) === file.type) || file.type === 'application/vnd.ms-excel';
  if (!allowed.includes(extension) || !mimeOk) return kind === 'logo' ? t.upload.imageOnly : t.upload.unsupportedType;
  if (file.size > UPLOAD_LIMITS.maxFileBytes) return t.upload.sizeExceeded;
  if (file.size === 0) return t.upload.unsupportedType;
  return undefined;
}

export async function removeFile(kind: UploadKind, id: string) {
  $company.setKey(kind, $company.get()[kind].filter((file) => file.id !== id));
  $companyErrors.setKey(kind, undefined);
  // Files already attached to the company are dropped by the fill call; only fresh uploads are deleted here.
  if (freshUploads.delete(id)) await onboardingApi.deleteFiles([id]);
}

/** Every rule of spec 5 for the administrator form, with its message; true when the form may be sent. */
export function validateCompany(): boolean {
  const s = $company.get();
  const e = t.onboarding.errors;
  const errors: Partial<Record<CompanyField, string>> = {};
  const nameEn = collapse(s.companyNameEn);
  if (!nameEn) errors.companyNameEn = e.companyNameEnRequired;
  else if (nameEn.length > COMPANY_NAME_MAX) errors.companyNameEn = e.companyNameTooLong;
  if (collapse(s.companyNameCn).length > COMPANY_NAME_MAX) errors.companyNameCn = e.companyNameTooLong;
  if (!s.companyType) errors.companyType = e.companyTypeRequired;
  if (!s.country) errors.country = e.countryRequired;
  if (!collapse(s.contactName)) errors.contactName = e.contactNameRequired;
  const phone = phoneProblem(s.areaId, s.contactTel);
  if (phone) errors.contactTel = phone;
  if (s.companyType && PORT_REQUIRED_TYPES.includes(s.companyType) && !s.port) errors.port = e.portRequired;
  if (!collapse(s.socialCredit)) errors.socialCredit = e.creditCodeRequired;
  const email = emailProblem(s.contactEmail);
  if (email) errors.contactEmail = email;
  if (!s.licence.length) errors.licence = e.licenceRequired;
  if (s.companyType && GTC_REQUIRED_TYPES.includes(s.companyType) && !s.gtc.length) errors.gtc = e.gtcRequired;
  $companyErrors.set(errors);
  return Object.keys(errors).length === 0;
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

/** Where a gateway problem with a `path` goes on the form. */
const fieldOfPath: Record<string, CompanyField> = {
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
};
const fieldOfCode: Record<string, CompanyField> = {
  CO0001: 'companyNameEn',
  CO0002: 'port',
  CO0003: 'gtc',
  CO0004: 'country',
  CO0005: 'port',
  CO0007: 'logo',
  PH0001: 'contactTel',
  PH0002: 'contactEmail',
};

function showCompanyFailure(result: Extract<ApiResult<unknown>, { ok: false }>) {
  const message = failureText(result);
  const data = result.data as { path?: unknown } | { path?: unknown }[] | null | undefined;
  const path = Array.isArray(data) ? data[0]?.path : data?.path;
  const key = typeof path === 'string' ? path.split('.')[0]! : Array.isArray(path) ? String(path[0]) : '';
  const field = fieldOfPath[key] ?? fieldOfCode[result.code];
  if (field) $companyErrors.setKey(field, message);
  // The form-level alert says it too, so a person at the submit button hears it (a duplicate company).
  $companyErrors.setKey('form', message);
}

/** Submit: create (→ completion) or fill (→ completion as well: the application is looked at again). */
export async function submitCompany() {
  if ($company.get().busy) return;
  $companyErrors.set({});
  if (!validateCompany()) {
    $companyErrors.setKey('form', t.onboarding.errorSummary);
    return;
  }
  if (Object.values($company.get().uploading).some(Boolean)) return;
  $company.setKey('busy', true);
  const s = $company.get();
  const result = s.mode === 'fill' ? await onboardingApi.fillCompany({ ...companyRequest(), companyId: s.companyId }) : await onboardingApi.createCompany(companyRequest());
  if (!result.ok) {
    $company.setKey('busy', false);
    showCompanyFailure(result);
    return;
  }
  for (const file of [...s.licence, ...s.gtc, ...s.logo]) freshUploads.delete(file.id);
  sessionStorage.setItem(APPLICATION_KEY, result.data.companyId);
  sessionStorage.removeItem('companyName');
  sessionStorage.removeItem('ports');
  const query = new URLSearchParams({ userType: '2', loginType: String(await currentLoginType()), ifJumpToSaas: 'false' });
  location.assign(`/completion_of_application?${query}`);
}

// ---------------------------------------------------------------------------------------------------------
// The staff form: /join
// ---------------------------------------------------------------------------------------------------------

export type JoinField = 'invitationCode' | 'nickName' | 'personalEmail' | 'contactTel' | 'hireTime' | 'form';

const emptyJoin = {
  invitationCode: '',
  /** The company the code belongs to, read-only. */
  companyName: '',
  lookup: 'idle' as 'idle' | 'looking' | 'found' | 'unknown',
  nickName: '',
  personalEmail: '',
  areaId: DEFAULT_AREA_CODE_ID,
  phoneCode: '+86',
  contactTel: '',
  hireTime: '',
  busy: false,
};
export type JoinState = typeof emptyJoin;
export const $join = map<JoinState>({ ...emptyJoin });
export const $joinErrors = map<Partial<Record<JoinField, string>>>({});
let lang: 'zh' | 'en' = 'en';
let lookupTicket = 0;

export function initJoin(messages: OnboardingMessages, language: 'zh' | 'en') {
  t = messages;
  lang = language;
  $join.set({ ...emptyJoin });
  $joinErrors.set({});
  const code = new URLSearchParams(location.search).get('code');
  if (code) setInvitationCode(code);
}

type JoinEditable = Exclude<keyof JoinState, 'companyName' | 'lookup' | 'busy' | 'invitationCode'>;
export function setJoinField<K extends JoinEditable>(key: K, value: JoinState[K]) {
  $join.setKey(key, value as never);
  const field = (key === 'areaId' || key === 'phoneCode' ? 'contactTel' : key) as JoinField;
  if ($joinErrors.get()[field]) $joinErrors.setKey(field, undefined);
}

/** Typing the code: once it is complete the company name fills itself. */
export function setInvitationCode(raw: string) {
  const code = raw.replace(/[\s-]/g, '').toUpperCase().slice(0, INVITATION_LENGTH);
  const changed = code !== $join.get().invitationCode;
  $join.setKey('invitationCode', code);
  if (!changed) return;
  $joinErrors.setKey('invitationCode', undefined);
  $join.set({ ...$join.get(), companyName: '', lookup: 'idle' });
  if (code.length === INVITATION_LENGTH) void lookUpCompany();
}

/** On blur, or when the code is complete: selectCompanyNameByCompanyId. */
export async function lookUpCompany() {
  const code = $join.get().invitationCode;
  if (!code) return;
  const parsed = invitationCodeSchema.safeParse(code);
  if (!parsed.success) {
    $joinErrors.setKey('invitationCode', t.onboarding.errors.invitationCodeInvalid);
    return;
  }
  if ($join.get().lookup === 'found' || $join.get().lookup === 'looking') return;
  const ticket = ++lookupTicket;
  $join.setKey('lookup', 'looking');
  const answer = await onboardingApi.companyNameByInvitation(parsed.data);
  if (ticket !== lookupTicket || $join.get().invitationCode !== code) return;
  if (answer.ok) {
    const name = lang === 'zh' && answer.data.companyNameCn ? answer.data.companyNameCn : answer.data.companyNameEn;
    $join.set({ ...$join.get(), companyName: name, lookup: 'found' });
  } else {
    $join.set({ ...$join.get(), companyName: '', lookup: 'unknown' });
    $joinErrors.setKey('invitationCode', failureText(answer));
  }
}

export function validateJoin(): boolean {
  const s = $join.get();
  const e = t.onboarding.errors;
  const errors: Partial<Record<JoinField, string>> = {};
  if (!s.invitationCode) errors.invitationCode = e.invitationCodeRequired;
  else if (!invitationCodeSchema.safeParse(s.invitationCode).success) errors.invitationCode = e.invitationCodeInvalid;
  else if (s.lookup === 'unknown') errors.invitationCode = $joinErrors.get().invitationCode ?? e.invitationCodeInvalid;
  if (!collapse(s.nickName)) errors.nickName = e.realNameRequired;
  const email = emailProblem(s.personalEmail);
  if (email) errors.personalEmail = email;
  const phone = phoneProblem(s.areaId, s.contactTel);
  if (phone) errors.contactTel = phone;
  if (s.hireTime && !isoDateSchema.safeParse(s.hireTime).success) errors.hireTime = e.hireDateInvalid;
  $joinErrors.set(errors);
  return Object.keys(errors).length === 0;
}

export async function submitJoin() {
  if ($join.get().busy) return;
  if (!validateJoin()) {
    $joinErrors.setKey('form', t.onboarding.errorSummary);
    return;
  }
  $join.setKey('busy', true);
  const s = $join.get();
  const result = await onboardingApi.join({
    companyId: s.invitationCode,
    companyNameEn: s.companyName || undefined,
    nickName: collapse(s.nickName),
    personalEmail: stripSpacesAndCommas(s.personalEmail),
    contactTel: stripSpacesAndCommas(s.contactTel),
    phoneCode: s.phoneCode,
    hireTime: s.hireTime || undefined,
  });
  if (!result.ok) {
    $join.setKey('busy', false);
    const field: JoinField = result.code === 'CO0010' || result.code === 'CO0013' ? 'invitationCode' : result.code === 'PH0001' ? 'contactTel' : result.code === 'PH0002' ? 'personalEmail' : 'form';
    $joinErrors.setKey(field, failureText(result));
    if (field !== 'form') $joinErrors.setKey('form', failureText(result));
    return;
  }
  // The same shape as login case 5 (staff awaiting approval): no ifJumpToSaas.
  const query = new URLSearchParams({ userType: '2', loginType: String(await currentLoginType()) });
  location.assign(`/completion_of_application?${query}`);
}
