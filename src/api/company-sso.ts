import * as z from 'zod/mini';
import { loginAnswer } from '../schemas/sign-in-answers';
import {
  companyDomain,
  companyDomainList,
  companySsoConnection,
  companySsoConnectionList,
  companySsoLookupAnswer,
  companySsoNeedsLink,
  companySsoStartAnswer,
  type CompanySsoCallbackRequest,
  type CompanySsoConnectionRequest,
  type CompanySsoSettingsRequest,
} from '../schemas/company-sso';
import { callGateway } from './client';

/** A callback answers the login answer of every sign-in, or asks for the existing account's own proof. */
const callbackAnswer = z.union([loginAnswer, companySsoNeedsLink]);

/** A company's own identity provider (contracts in src/schemas/company-sso.ts). */
export const companySsoApi = {
  lookup: (email: string) => callGateway('agg-web/company-sso/lookup', companySsoLookupAnswer, { body: { email } }),
  start: (email: string) => callGateway('agg-web/company-sso/start', companySsoStartAnswer, { body: { email } }),
  callback: (body: CompanySsoCallbackRequest) => callGateway('agg-web/company-sso/callback', callbackAnswer, { body }),
  sendLinkCode: () => callGateway('agg-web/company-sso/link/code', z.unknown(), { body: {} }),
  link: (code: string) => callGateway('agg-web/company-sso/link', loginAnswer, { body: { code } }),
  // The company administrators' section of the user center.
  domains: (companyId: string) => callGateway('agg-web/company-domains', companyDomainList, { method: 'GET', query: { companyId } }),
  addDomain: (companyId: string, domain: string) => callGateway('agg-web/company-domains/add', companyDomain, { body: { companyId, domain } }),
  removeDomain: (companyId: string, domain: string) => callGateway('agg-web/company-domains/remove', companyDomainList, { body: { companyId, domain } }),
  checkDomain: (companyId: string, domain: string) => callGateway('agg-web/company-domains/check', companyDomain, { body: { companyId, domain } }),
  connections: (companyId: string) => callGateway('agg-web/company-sso/connections', companySsoConnectionList, { method: 'GET', query: { companyId } }),
  routeDomain: (companyId: string, domain: string, connectionId: string) => callGateway('agg-web/company-domains/connection', companyDomainList, { body: { companyId, domain, connectionId } }),
  saveConnection: (body: CompanySsoConnectionRequest) => callGateway('agg-web/company-sso/connection', companySsoConnection, { body }),
  saveSettings: (body: CompanySsoSettingsRequest) => callGateway('agg-web/company-sso/settings', companySsoConnection, { body }),
};
