import * as z from 'zod/mini';
import { loginAnswer } from '../schemas/sign-in-answers';
import { shareLinkAnswer, type PassEmailSendRequest } from '../schemas/login-links';
import { callGateway } from './client';

/** The sign-in link calls (contracts in src/schemas/login-links.ts). */
export const loginLinkApi = {
  sendPassEmail: (body: PassEmailSendRequest) => callGateway('agg-web/user/passEmail/send', z.unknown(), { body }),
  passEmailLogin: (pass: string) => callGateway('agg-web/user/passEmail/login', loginAnswer, { body: { pass } }),
  createShareLink: () => callGateway('agg-web/user/shareLogin/create', shareLinkAnswer, { body: {} }),
  shareLogin: (share: string) => callGateway('agg-web/user/shareLogin/login', loginAnswer, { body: { share } }),
};
