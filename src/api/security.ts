import * as z from 'zod/mini';
import { knownDevicesAnswer, sessionsAnswer, signInsAnswer, signOutOthersAnswer } from '../schemas/security';
import { callGateway } from './client';

/** One function per gateway call of the user center's Security section (contracts in schemas/security.ts). */
export const securityApi = {
  sessions: () => callGateway('agg-web/user/security/sessions', sessionsAnswer, { method: 'GET' }),
  signOut: (id: string) => callGateway('agg-web/user/security/sessions/signOut', z.null(), { body: { id } }),
  signOutOthers: () => callGateway('agg-web/user/security/sessions/signOutOthers', signOutOthersAnswer, { body: {} }),
  devices: () => callGateway('agg-web/user/security/devices', knownDevicesAnswer, { method: 'GET' }),
  forgetDevice: (id: string) => callGateway('agg-web/user/security/devices/forget', z.null(), { body: { id } }),
  signIns: () => callGateway('agg-web/user/security/signIns', signInsAnswer, { method: 'GET' }),
};
