import {
  clientWithSecret,
  companyClient,
  companyClientCreated,
  companyClientsAnswer,
  consoleClient,
  consoleClientList,
  logoutSendList,
  type CompanyClientRequest,
  type ConsoleClientEdit,
  type ConsoleClientRequest,
  type ConsolePkceRequest,
} from '../schemas/oidc-clients';
import { callGateway } from './client';

const client = (id: string) => `ops/v1/oidc/clients/${encodeURIComponent(id)}`;

/** The operators' client console (admins): one function per gateway call (contracts in schemas/oidc-clients.ts). */
export const oidcConsoleApi = {
  list: () => callGateway('ops/v1/oidc/clients', consoleClientList, { method: 'GET' }),
  register: (request: ConsoleClientRequest) => callGateway('ops/v1/oidc/clients', clientWithSecret, { body: request }),
  edit: (id: string, request: ConsoleClientEdit) => callGateway(client(id), consoleClient, { body: request }),
  rotateSecret: (id: string) => callGateway(`${client(id)}/rotateSecret`, clientWithSecret, { body: {} }),
  setDisabled: (id: string, disable: boolean) => callGateway(`${client(id)}/${disable ? 'disable' : 'enable'}`, consoleClient, { body: {} }),
  setPkce: (id: string, request: ConsolePkceRequest) => callGateway(`${client(id)}/pkce`, consoleClient, { body: request }),
  logoutSends: (id: string) => callGateway(`${client(id)}/logoutSends`, logoutSendList, { method: 'GET' }),
};

/** A company's API clients in the user center (its administrators). */
export const companyClientsApi = {
  list: (companyId: string) => callGateway('agg-web/api-clients', companyClientsAnswer, { method: 'GET', query: { companyId } }),
  create: (request: CompanyClientRequest) => callGateway('agg-web/api-clients/create', companyClientCreated, { body: request }),
  revoke: (companyId: string, clientId: string) => callGateway('agg-web/api-clients/revoke', companyClient, { body: { companyId, clientId } }),
};
