import * as z from 'zod/mini';
import { companyListAnswer } from '../schemas/company-list';
import { callGateway } from './client';

/**
 * The signed-in account's calls: its companies, entering one, the terms, signing out. Apart from the sign-in calls
 * (api/auth.ts spreads them into authApi), so the signed-in pages load neither those calls nor their contracts
 * (issue 31).
 */
export const accountApi = {
  companyList: () => callGateway('c/user/v2/getCompanyListByToken', companyListAnswer, { body: {} }),
  chooseAccount: (companyId: string) => callGateway('agg-web/user/chooseAccount', z.unknown(), { body: { companyId } }),
  logout: () => callGateway('c/user/v2/loginout', z.unknown(), { body: {} }),
  /** Grants the person may act under (issue 41): only how many; the acting section (lazy) reads them fully. */
  actingChoices: () => callGateway('agg-web/user/actingChoices', z.array(z.unknown()), { body: {} }),
  agreeToTerms: () => callGateway('agg-web/protocol/agree', z.unknown(), { body: {} }),
};
