import * as z from 'zod/mini';
import {
  loginAnswer,
  humanCheckSchema,
  sliderCheckSchema,
  userSaltAnswer,
  type ChainLoginRequest,
  type CheckIsNewUserRequest,
  type EmailCodeRequest,
  type EmailInsteadRequest,
  type EmailPasswordLoginRequest,
  type PhonePasswordLoginRequest,
  type PowPayload,
  type SliderInput,
  type QuickLoginRequest,
  type SliderInitRequest,
  type SmsSendRequest,
} from '../schemas/auth';
import { accountApi } from './account';
import { fetchLoginCase } from './login-case';
import { callGateway } from './client';

// The sign-in store loads this module on the form's first use and checks e-mail addresses with this schema.
export { emailSchema } from '../schemas/auth';

/** One function per gateway call of the sign-in screen. */
export const authApi = {
  // The signed-in account's calls (api/account.ts), which the signed-in pages import without the sign-in calls.
  ...accountApi,
  checkIsNewUser: (body: CheckIsNewUserRequest) => callGateway('agg-web/quick/user/checkIsNewUser', z.boolean(), { body }),
  sliderInit: (body: SliderInitRequest) => callGateway('agg-web/captcha/slider/init', humanCheckSchema, { body }),
  sliderVerify: (body: { sessionId: string; x: number; trail: [number, number][]; pow: PowPayload; input: SliderInput }) =>
    callGateway('agg-web/captcha/slider/verify', sliderCheckSchema, { body }),
  turnstileVerify: (body: SliderInitRequest & { token: string }) => callGateway('agg-web/captcha/turnstile/verify', sliderCheckSchema, { body }),
  sendSms: (body: SmsSendRequest) => callGateway('agg-web/sms/send', z.unknown(), { body }),
  /** The code by e-mail when no SMS provider could send (the ticket of the DL0010 answer). */
  emailInstead: (body: EmailInsteadRequest) => callGateway('agg-web/sms/email-instead', z.unknown(), { body }),
  sendEmailCode: (body: EmailCodeRequest) => callGateway('agg-web/user/getRegVerificationCode', z.unknown(), { body }),
  quickLogin: (body: QuickLoginRequest) => callGateway('agg-web/quick/user/login', loginAnswer, { body }),
  emailPasswordLogin: (body: EmailPasswordLoginRequest) => callGateway('agg-web/user/v3/userLogin', loginAnswer, { body }),
  phonePasswordLogin: (body: PhonePasswordLoginRequest) => callGateway('agg-web/user/loginByPhone', loginAnswer, { body }),
  chainLogin: (body: ChainLoginRequest) => callGateway('agg-web/user/v2/yunLianLogin', loginAnswer, { body }),
  userSalt: (body: { loginName?: string; type: 1 | 2 | 3; phone?: string; phoneCode?: string }) =>
    callGateway('agg-web/user/getUserSalt', userSaltAnswer, { body }),
  loginCase: fetchLoginCase,
  anonymousLogin: (loginType: 1 | 2) => callGateway('agg-web/quick/user/anonymity/account/login', z.unknown(), { body: { loginType } }),
};
