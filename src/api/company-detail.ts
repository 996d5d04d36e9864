import { companyDetailAnswer } from '../schemas/company-detail';
import { callGateway } from './client';

/** GET agg-web/company/detail (onboardingApi.companyDetail is this call): /fill_account reads it alone at first paint. */
export const fetchCompanyDetail = (companyId: string) => callGateway('agg-web/company/detail', companyDetailAnswer, { method: 'GET', query: { companyId } });
