import { accountApi } from '../api/account';
import { fetchCompanyDetail } from '../api/company-detail';
import { problemOf } from '../i18n/problem';
import { DEFAULT_AREA_CODE_ID } from '../schemas/auth-rules';
import type { CompanyDetailAnswer } from '../schemas/company-detail';
import { COMPANY_TYPES, companyTypeFromDb, FILLABLE_STATUSES, verificationStatusFromDb, type CompanyType } from '../schemas/company-status';
import { SESSION_KEYS } from './browser';
import type { CompanyContext, CompanyState } from './company';

/**
 * /fill_account's read of the company it fills, with the detail's contract only (schemas/company-detail.ts): loaded
 * by stores/company.ts in fill mode, so /create_account does not load it and /fill_account's first paint loads
 * neither the onboarding contracts nor the form's checks (issue 31).
 */

/**
 * /fill_account: loads the company (the query's `companyId`, else the one this person administers whose
 * application can still change) and fills the form with it.
 */
export async function loadFillCompany(ctx: CompanyContext) {
  const { form, env } = ctx;
  const $company = form.$values;
  let companyId = new URLSearchParams(env.search).get('companyId') ?? env.storage.getItem(SESSION_KEYS.application) ?? '';
  if (!companyId) {
    const list = await accountApi.companyList();
    const own = list.ok
      ? list.data.find((c) => c.role === 'administrator' && (FILLABLE_STATUSES as readonly string[]).includes(verificationStatusFromDb(c.status) as never))
      : undefined;
    companyId = own?.companyId ?? '';
  }
  if (!companyId) return $company.setKey('phase', 'missing');
  const detail = await fetchCompanyDetail(companyId);
  if (!detail.ok) {
    $company.setKey('phase', 'missing');
    form.fail('form', problemOf(detail));
    return;
  }
  // The reason's words come with the detail, in the page's language (the request's language header).
  const r = detail.data.review;
  const review = r ? { status: detail.data.status, reason: r.reason, note: r.note, text: r.text } : null;
  $company.set({ ...$company.get(), ...formFromDetail(detail.data), review, phase: 'ready' });
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
    // An overseas company's (issue 42): sent back with the form, so that the fill keeps them.
    imoCompanyNumber: d.imoCompanyNumber ?? '',
    nationalRegistryNumber: d.nationalRegistryNumber ?? '',
    registryEvidence: d.registryEvidence,
  };
}

