import { callGateway } from './client';
import { connectDecisionAnswer, connectedAppsAnswer, connectRequestAnswer, logoutDecisionAnswer, logoutRequestAnswer } from '../schemas/oidc';
import * as z from 'zod/mini';

/** Signing in to another app through the portal (src/schemas/oidc.ts): one function per gateway call. */
export const connectApi = {
  request: (id: string) => callGateway(`oidc/v1/requests/${encodeURIComponent(id)}`, connectRequestAnswer, { method: 'GET' }),
  release: (id: string) => callGateway(`oidc/v1/requests/${encodeURIComponent(id)}/release`, z.null(), { body: {} }),
  decide: (id: string, allow: boolean) => callGateway(`oidc/v1/requests/${encodeURIComponent(id)}/decision`, connectDecisionAnswer, { body: { allow } }),
  connectedApps: () => callGateway('oidc/v1/connected', connectedAppsAnswer, { method: 'GET' }),
  signOutRequest: (id: string) => callGateway(`oidc/v1/logouts/${encodeURIComponent(id)}`, logoutRequestAnswer, { method: 'GET' }),
  decideSignOut: (id: string, signOut: boolean) => callGateway(`oidc/v1/logouts/${encodeURIComponent(id)}/decision`, logoutDecisionAnswer, { body: { signOut } }),
  disconnect: (clientId: string) => callGateway(`oidc/v1/connected/${encodeURIComponent(clientId)}/disconnect`, z.object({ clientId: z.string() })),
};
