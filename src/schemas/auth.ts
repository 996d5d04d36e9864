// zod/mini: these contracts ship to the browser. Classic zod hangs every method on each schema, so none of it
// tree-shakes (about 17 KB more gzipped JS on /login). Same core: parsing, output and issues are identical.
import * as z from 'zod/mini';
import { checked } from './checked';
import { COMPANY_NAME_CODE, displayText } from './display-text';
import { NEW_USER_COMPANY_MAX } from './auth-rules';
// The contact fields and the company list have modules of their own (the signed-in pages read them without the
// sign-in contracts: issue 31), re-exported here so every import of them, functions/ included, is unchanged.
export { callingCodeSchema, codeSchema, emailSchema, mainlandMobileSchema, mobileSchema } from './contact-fields';
export { companyListAnswer, companyListItem, type CompanyListItem } from './company-list';
export { loginAnswer, loginCaseAnswer, oauthSchema, type LoginAnswer, type LoginCaseAnswer } from './sign-in-answers';
import { callingCodeSchema, codeSchema, emailSchema, mobileSchema } from './contact-fields';

// The plain values and checks of these contracts live in auth-rules.ts (no zod there), re-exported here.
export {
  DEFAULT_AREA_CODE_ID,
  LOGIN_CLIENT,
  LOGIN_TYPE,
  meetsPasswordRule,
  NEW_USER_COMPANY_MAX,
  PASSWORD_RULE,
  PASSWORD_VERSION,
  stripSpacesAndCommas,
  TRACELESS,
  USER_IDENTITY,
} from './auth-rules';

/**
 * Wire contracts of the sign-in calls. One schema per call, used by the island's form and
 * api function, by the gateway route, and by the tests. Requests are stripped of unknown keys.
 */

export const loginTypeSchema = z.union([z.literal(1), z.literal(2)]);

export const passwordHashSchema = checked(z.string(), z.regex(/^[0-9a-f]{64}$/));
export const passwordVersionSchema = z.union([z.literal(1), z.literal(2)]);
/**
 * SHA-1 hex of a password, for the offline breached-password check only (issue 44: the Pwned Passwords ranges are
 * SHA-1). Sent beside a new password (`newPasswordSha1`) and beside a version-2 sign-in (`passwordSha1`).
 */
export const passwordSha1Schema = checked(z.string(), z.regex(/^[0-9a-fA-F]{40}$/));


/** The one-time token a passed slider yields; `sms/send` and a risk-checked login consume it. */
export const sliderCheckSchema = z.object({
  scene: checked(z.string(), z.maxLength(32)),
  sessionId: checked(z.string(), z.maxLength(64)),
  sign: checked(z.string(), z.maxLength(128)),
  token: checked(z.string(), z.maxLength(128)),
});
export type SliderCheck = z.infer<typeof sliderCheckSchema>;


const phoneOrEmail = {
  loginType: loginTypeSchema,
  mobileCode: z.optional(callingCodeSchema),
  mobile: z.optional(mobileSchema),
  loginEmail: z.optional(emailSchema),
};

// POST agg-web/quick/user/checkIsNewUser → boolean
export const checkIsNewUserRequest = z.object(phoneOrEmail);
export type CheckIsNewUserRequest = z.infer<typeof checkIsNewUserRequest>;

// POST agg-web/captcha/slider/init: `scene` sms binds the passed slider to the phone (E.164) it will send to;
// `scene` login binds it to the login identity whose sign-in asked for it (tracelessCheckResult 400).
export const sliderInitRequest = z.object({
  scene: z.enum(['sms', 'login']),
  subject: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(254)),
});
export type SliderInitRequest = z.infer<typeof sliderInitRequest>;

/**
 * The proof of work a slider verify carries: an ALTCHA (v2) challenge as the server signed it and the
 * solver's answer. The server checks the signature, that it names this slider challenge, and the answer.
 */
export const powChallengeSchema = z.object({
  parameters: z.record(z.string(), z.unknown()),
  signature: checked(z.string(), z.maxLength(256)),
});
export const powPayloadSchema = z.object({
  challenge: powChallengeSchema,
  solution: z.object({ counter: z.number(), derivedKey: checked(z.string(), z.maxLength(256)) }),
});
export type PowPayload = z.infer<typeof powPayloadSchema>;

// POST agg-web/captcha/slider/init → a slider challenge, or (CAPTCHA_PROVIDER "turnstile") the site key of
// the Turnstile widget, whose token goes to agg-web/captcha/turnstile/verify instead.
export const sliderChallengeSchema = z.object({
  provider: z.literal('slider'),
  sessionId: z.string(),
  /**
   * PNG data URLs: the background with the hole in its pixels, and the piece as a transparent strip as tall
   * as the background (so its height on the page says nothing either). Where the hole is stays on the server.
   */
  background: z.string(),
  piece: z.string(),
  width: z.number(),
  height: z.number(),
  pieceSize: z.number(),
  /** Solved in a Web Worker while the person drags; the verify carries the answer. */
  pow: powChallengeSchema,
});
export type SliderChallenge = z.infer<typeof sliderChallengeSchema>;
export const turnstileChallengeSchema = z.object({ provider: z.literal('turnstile'), siteKey: z.string() });
export type TurnstileChallenge = z.infer<typeof turnstileChallengeSchema>;
export const humanCheckSchema = z.discriminatedUnion('provider', [sliderChallengeSchema, turnstileChallengeSchema]);

// POST agg-web/captcha/slider/verify
export const sliderVerifyRequest = z.object({
  sessionId: checked(z.string(), z.maxLength(64)),
  /** Final x of the piece's left edge, in challenge pixels. z.number() refuses Infinity and NaN. */
  x: z.number(),
  /** The drag as [ms since start, x] samples; a person's drag is neither instant nor perfectly linear. */
  trail: checked(z.array(z.tuple([z.number(), z.number()])), z.maxLength(2000)),
  pow: powPayloadSchema,
  /**
   * How the piece was moved: 'keyboard' (arrow keys, a switch device, voice control: an even pace is normal
   * there, so the pace is not judged) or 'pointer' (a drag; the default).
   */
  input: z.optional(z.enum(['pointer', 'keyboard'])),
});
export type SliderInput = 'pointer' | 'keyboard';

// POST agg-web/captcha/turnstile/verify: the widget's token, bound like a slider init to scene and subject.
export const turnstileVerifyRequest = z.object({
  ...sliderInitRequest.shape,
  token: checked(z.string(), z.minLength(1), z.maxLength(2048)),
});
export const sliderVerifyAnswer = sliderCheckSchema;

// POST agg-web/sms/send (type 3 quick login, 1 otherwise)
export const smsSendRequest = z.object({
  phoneCode: checked(z.string(), z.maxLength(8)),
  mobile: mobileSchema,
  type: z.union([z.literal(1), z.literal(3)]),
  phoneCodeValue: callingCodeSchema,
  sliderCheck: sliderCheckSchema,
});
export type SmsSendRequest = z.infer<typeof smsSendRequest>;

// POST agg-web/sms/email-instead: the ticket of a DL0010 answer (no SMS provider could send), for the code by e-mail.
export const emailInsteadRequest = z.object({ emailTicket: checked(z.string(), z.minLength(1), z.maxLength(100)) });
export type EmailInsteadRequest = z.infer<typeof emailInsteadRequest>;
/** The data of a DL0010 answer. */
export const smsDownData = z.object({ emailTicket: z.string() });

// POST agg-web/user/getRegVerificationCode
export const emailCodeRequest = z.object({
  emailAddress: emailSchema,
  type: z.union([z.literal(1), z.literal(3)]),
});
export type EmailCodeRequest = z.infer<typeof emailCodeRequest>;

// POST agg-web/quick/user/login: signs in, and registers a new user with identity and company name, or, joining a
// company by invitation, with neither (issue 47).
export const quickLoginRequest = z.object({
  ...phoneOrEmail,
  code: codeSchema,
  nvcvalStr: z.optional(checked(z.string(), z.maxLength(1024))),
  userIdentity: z.optional(z.union([z.literal(1), z.literal(2)])),
  companyName: z.optional(checked(z.string(), z.trim(), z.minLength(1), z.maxLength(NEW_USER_COMPANY_MAX), displayText({ emoji: false, code: COMPANY_NAME_CODE }))),
  /** A new user's serviced port (UN/LOCODE), kept with the company name for the administrator form (login case 7). */
  portId: z.optional(checked(z.string(), z.regex(/^[A-Za-z]{2}[A-Za-z0-9]{3}$/))),
  /** A new user who will join a company by invitation: registered without identity or company name (which are ignored). */
  joining: z.optional(z.literal(true)),
  /** The agreement box was ticked; sign-in is refused without it. */
  agreed: z.literal(true),
});
export type QuickLoginRequest = z.infer<typeof quickLoginRequest>;

// POST agg-web/user/v3/userLogin (e-mail + password)
export const emailPasswordLoginRequest = z.object({
  loginEmail: emailSchema,
  loginPassword: passwordHashSchema,
  passwordVersion: passwordVersionSchema,
  /** Set when the insecure-password modal was confirmed: SHA-256 hex of the new password. */
  newPassword: z.optional(passwordHashSchema),
  newPasswordSha1: z.optional(passwordSha1Schema),
  passwordSha1: z.optional(passwordSha1Schema),
  captchaType: z.literal(3),
  nvcvalStr: z.optional(checked(z.string(), z.maxLength(1024))),
  grant_type: z.literal('password'),
  scope: z.literal('server'),
  client_id: checked(z.string(), z.maxLength(64)),
  client_secret: checked(z.string(), z.maxLength(128)),
});
export type EmailPasswordLoginRequest = z.infer<typeof emailPasswordLoginRequest>;

// POST agg-web/user/loginByPhone
export const phonePasswordLoginRequest = z.object({
  mobile: mobileSchema,
  mobileCode: callingCodeSchema,
  password: passwordHashSchema,
  passwordVersion: passwordVersionSchema,
  newPassword: z.optional(passwordHashSchema),
  newPasswordSha1: z.optional(passwordSha1Schema),
  passwordSha1: z.optional(passwordSha1Schema),
  loginType: z.literal(101),
  captchaType: z.literal(3),
  nvcvalStr: z.optional(checked(z.string(), z.maxLength(1024))),
});
export type PhonePasswordLoginRequest = z.infer<typeof phonePasswordLoginRequest>;

// POST agg-web/user/v2/yunLianLogin (chain partner, ?channel=britc)
export const chainLoginRequest = z.object({
  usId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)),
  password: passwordHashSchema,
  newPassword: z.optional(passwordHashSchema),
  newPasswordSha1: z.optional(passwordSha1Schema),
  passwordSha1: z.optional(passwordSha1Schema),
  passwordVersion: passwordVersionSchema,
  captchaType: z.literal(3),
  nvcvalStr: z.optional(checked(z.string(), z.maxLength(1024))),
});
export type ChainLoginRequest = z.infer<typeof chainLoginRequest>;

// POST agg-web/user/getUserSalt (type 1 phone, 2 e-mail, 3 user id)
export const userSaltRequest = z.object({
  loginName: z.optional(checked(z.string(), z.maxLength(254))),
  type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  phone: z.optional(mobileSchema),
  phoneCode: z.optional(callingCodeSchema),
});
export const userSaltAnswer = z.object({ salt: z.string() });




// GET agg-web/user/fetchMeByUserToken (session): meAnswer lives in ./profile.ts (not loaded by the sign-in pages).

// POST agg-web/quick/user/anonymity/account/login (session): login case 3 signs in as an individual account.
export const anonymousLoginRequest = z.object({ loginType: z.optional(loginTypeSchema) });

// POST agg-web/user/chooseAccount (session): enter one of the companies of getCompanyListByToken.
export const chooseAccountRequest = z.object({ companyId: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(64)) });
