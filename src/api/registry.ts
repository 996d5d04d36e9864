import { registryCheckAnswer, type RegistryCheckRequest } from '../schemas/registry';
import { callGateway } from './client';

/**
 * The applicant's registry check (issue 42): loaded with the company form's submit (stores/company-actions.ts),
 * not with the page. The legal representative's name and number go in this one request and nowhere else.
 */
export const registryApi = {
  check: (body: RegistryCheckRequest) => callGateway('agg-web/registry/check', registryCheckAnswer, { body }),
};
