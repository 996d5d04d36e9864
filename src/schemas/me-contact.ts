import * as z from 'zod/mini';
import type { MeAnswer } from './profile';

/**
 * The part of fetchMeByUserToken's answer (meAnswer, profile.ts) the join form fills itself from, and the identity
 * (the new-user dialog's answer) by which the company form offers its types: parsed alone, so the first paint of
 * /join and /create_account loads none of the profile's and the companies' contracts (issue 31). Other keys are
 * ignored.
 */
export const meContactAnswer = z.object({
  realName: z.string(),
  registerMobile: z.nullable(z.string()),
  userPhoneCode: z.nullable(z.string()),
  userPhoneCodeValue: z.nullable(z.string()),
  identity: z.optional(z.nullable(z.union([z.literal(1), z.literal(2)]))),
});
export type MeContact = z.infer<typeof meContactAnswer>;

/** In step with meAnswer: this fails to compile when meAnswer types one of these fields differently. */
type Assert<T extends true> = T;
export type MeContactInStepWithMe = Assert<Pick<MeAnswer, keyof MeContact> extends MeContact ? (MeContact extends Pick<MeAnswer, keyof MeContact> ? true : false) : false>;
