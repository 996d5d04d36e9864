import {
  actingChoices,
  autoAcceptAnswer,
  companyLookupAnswer,
  declareVesselAnswer,
  grantSchema,
  grantsAnswer,
  vesselList,
  type CreateGrantRequest,
  type DeclareVesselRequest,
} from '../schemas/grants';
import * as z from 'zod/mini';
import { callGateway } from './client';

/** Vessels and grants between companies (issue 41): one function per gateway call (contracts in schemas/grants.ts). */
export const grantsApi = {
  vessels: (companyId: string) => callGateway('agg-web/company/vessels/list', vesselList, { body: { companyId } }),
  declareVessel: (request: DeclareVesselRequest) => callGateway('agg-web/company/vessels/declare', declareVesselAnswer, { body: request }),
  removeVessel: (companyId: string, vesselId: string) => callGateway('agg-web/company/vessels/remove', z.null(), { body: { companyId, vesselId } }),
  list: (companyId: string) => callGateway('agg-web/company/grants/list', grantsAnswer, { body: { companyId } }),
  lookUp: (companyId: string, name: string) => callGateway('agg-web/company/grants/companies', companyLookupAnswer, { body: { companyId, name } }),
  create: (request: CreateGrantRequest) => callGateway('agg-web/company/grants/create', grantSchema, { body: request }),
  accept: (companyId: string, grantId: string) => callGateway('agg-web/company/grants/accept', grantSchema, { body: { companyId, grantId } }),
  decline: (companyId: string, grantId: string) => callGateway('agg-web/company/grants/decline', grantSchema, { body: { companyId, grantId } }),
  revoke: (companyId: string, grantId: string) => callGateway('agg-web/company/grants/revoke', grantSchema, { body: { companyId, grantId } }),
  autoAccept: (companyId: string, agentCompanyId: string, on: boolean) => callGateway('agg-web/company/grants/autoAccept', autoAcceptAnswer, { body: { companyId, agentCompanyId, on } }),
  actingChoices: () => callGateway('agg-web/user/actingChoices', actingChoices, { body: {} }),
  actFor: (grantId: string) => callGateway('agg-web/user/actFor', z.null(), { body: { grantId } }),
};
