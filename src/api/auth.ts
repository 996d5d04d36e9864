import * as z from 'zod/mini';
import {
  companyListAnswer,
  loginAnswer,
  loginCaseAnswer,
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
import { callGateway } from './client';

// The sign-in store loads this module on the form's first use and checks e-mail addresses with this schema.
export { emailSchema } from '../schemas/auth';

/** One function per gateway call of the sign-in screen. */
export const authApi = {
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
  loginCase: () => callGateway('agg-web/quick/user/findUserLoginCase', loginCaseAnswer, { body: {} }),
  anonymousLogin: (loginType: 1 | 2) => callGateway('agg-web/quick/user/anonymity/account/login', z.unknown(), { body: { loginType } }),
  companyList: () => callGateway('c/user/v2/getCompanyListByToken', companyListAnswer, { body: {} }),
  chooseAccount: (companyId: string) => callGateway('agg-web/user/chooseAccount', z.unknown(), { body: { companyId } }),
  logout: () => callGateway('c/user/v2/loginout', z.unknown(), { body: {} }),
  agreeToTerms: () => callGateway('agg-web/protocol/agree', z.unknown(), { body: {} }),
};
