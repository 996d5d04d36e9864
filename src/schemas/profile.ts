import * as z from 'zod/mini';
import { checked } from './checked';
import { displayText } from './display-text';
import { grantedModuleSchema, isoDateSchema, memberRoleSchema } from './company-members';

/**
 * A person's own profile (fields realName, countryId, countryName, birthday, sex):
 * the contract of POST agg-web/user/updateUserInfo, shared by the user center's editor and the gateway.
 */

/** GET agg-web/user/fetchMeByUserToken (session) → the signed-in person; also updateUserInfo's answer. */
export const meAnswer = z.object({
  userId: z.string(),
  realName: z.string(),
  /** The new-user dialog's answer: 1 principal, 2 service provider; null when never asked. */
  identity: z.optional(z.nullable(z.union([z.literal(1), z.literal(2)]))),
  loginName: z.string(),
  registerMobile: z.nullable(z.string()),
  userPhoneCode: z.nullable(z.string()),
  businessEmails: z.nullable(z.string()),
  passwordVersion: z.number(),
  source: z.nullable(z.string()),
  /** ISO 3166-1 alpha-2 of the country list; null until the person sets it (updateUserInfo). */
  countryId: z.nullable(z.string()),
  /** The country's name in the language of the request (header `language`). */
  countryName: z.nullable(z.string()),
  /** 'YYYY-MM-DD'. */
  birthday: z.nullable(z.string()),
  /** One of SEXES below, read leniently (an unknown value shows as not stated); null when not stated. */
  sex: z.nullable(z.string()),
  // The rest of the specification's User. Every key is always sent; null (or an empty list) means no data yet.
  // The company fields describe the account in use: the company chosen in this session, else the main
  // enterprise, else the only company the person can enter.
  /** The name shown for the person: realName, else loginName. */
  username: z.string(),
  /** The given name within realName (after a Chinese one-character surname, or the first of several words). */
  givenName: z.nullable(z.string()),
  /** What the person signs in with: login name, else phone (E.164), else e-mail, else chain-partner id. */
  account: z.string(),
  /** The phone-code list id (ISO 3166-1 alpha-2) of the registered mobile's region, such as 'CN'. */
  userPhoneCodeValue: z.nullable(z.string()),
  /** `/api/agg-web/file/<id>`: the photo the person uploaded in the user center, served only to them. */
  photo: z.nullable(z.string()),
  /** When the account was created, epoch milliseconds. */
  dateCreate: z.number(),
  /** The company of the account in use. */
  accountId: z.nullable(z.string()),
  /** That company's enterprise-type key as the data model names it (consigner, consignee, oiler, …). */
  groupId: z.nullable(z.string()),
  /** The main enterprise (setMainAccount), whether or not it is the one in use. */
  mainAccountId: z.nullable(z.string()),
  /** The person administers the company in use. */
  superAdmin: z.boolean(),
  /** The name of that company's first administrator. */
  superAdminName: z.nullable(z.string()),
  /** The person's role in that company: ['administrator'] or ['staff']; [] without one. */
  roles: z.array(memberRoleSchema),
  /** The modules the person may use there: all of the company type's for an administrator, the granted ones for staff. */
  authoriseList: z.array(grantedModuleSchema),
  /** 'YYYY-MM-DD' from the staff form of that company. */
  hireDate: z.nullable(z.string()),
  /**
   * The company this session acts for under a grant (issue 41), with the grant's scope and the modules the person
   * has while acting (authoriseList then holds the same); absent or null when the session acts for no one.
   */
  actingFor: z.optional(
    z.nullable(
      z.object({
        grantId: z.string(),
        principal: z.object({ id: z.string(), nameEn: z.string(), nameCn: z.nullable(z.string()) }),
        vessels: z.array(z.string()),
        ports: z.array(z.string()),
        level: z.enum(['read', 'act']),
        until: z.number(),
      }),
    ),
  ),
  /**
   * A support "view as" (issue 44): the operator viewing, the end (epoch ms) and whether changes are allowed; absent
   * or null in the person's own sessions.
   */
  supportView: z.optional(z.nullable(z.object({ operator: z.string(), until: z.number(), writable: z.boolean() }))),
});
export type MeAnswer = z.infer<typeof meAnswer>;

/** `sex`, as it travels on the wire and is stored. Not stating it is null, not a third value. */
export const SEXES = ['male', 'female'] as const;
export const sexSchema = z.enum(SEXES);
export type Sex = z.infer<typeof sexSchema>;

export const REAL_NAME_MAX = 64;
/** The earliest birthday taken. */
export const BIRTHDAY_MIN = '1900-01-01';

const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');
/** An empty string from a form, null and an absent key all mean "not stated". */
const blankToNull = (value: string | null | undefined) => (value ? value : null);

/**
 * POST agg-web/user/updateUserInfo (session) → MeAnswer. Every field is sent: a null (or empty) optional
 * field clears it. `countryId` must be an `id` of the country list (selectPhoneCode / searchCountry); the
 * gateway stores that list's name. The birthday's upper bound (a past date) depends on today: see
 * `birthdayProblem`, which the form and the gateway both apply.
 */
export const updateUserInfoRequest = z.object({
  realName: z.pipe(z.pipe(z.string(), z.transform(collapse)), checked(z.string(), z.minLength(1), z.maxLength(REAL_NAME_MAX), displayText())),
  countryId: z.pipe(
    z.pipe(z.nullish(z.string()), z.transform((v: string | null | undefined) => blankToNull(v?.trim().toUpperCase()))),
    z.nullable(checked(z.string(), z.regex(/^[A-Z]{2}$/))),
  ),
  birthday: z.pipe(z.pipe(z.nullish(z.string()), z.transform((v: string | null | undefined) => blankToNull(v?.trim()))), z.nullable(isoDateSchema)),
  sex: z.pipe(z.pipe(z.nullish(z.string()), z.transform((v: string | null | undefined) => blankToNull(v))), z.nullable(sexSchema)),
});
export type UpdateUserInfoRequest = z.infer<typeof updateUserInfoRequest>;
export type UpdateUserInfoInput = z.input<typeof updateUserInfoRequest>;

/** 'YYYY-MM-DD' of an instant, in UTC (the day the gateway counts in). */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The birthday rule beyond its format: a real date from 1900-01-01 up to yesterday (UTC). Returns the error
 * code the gateway answers (US0031), or null. `now` is epoch milliseconds.
 */
export function birthdayProblem(birthday: string | null, now: number): 'US0031' | null {
  if (birthday === null) return null;
  return birthday >= BIRTHDAY_MIN && birthday < isoDay(now) ? null : 'US0031';
}
