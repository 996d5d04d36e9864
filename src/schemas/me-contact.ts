import * as z from 'zod/mini';
import type { MeAnswer } from './profile';

/**
 * The part of fetchMeByUserToken's answer (meAnswer, profile.ts) the join form fills itself from: parsed alone, so
 * /join's first paint loads none of the profile's and the companies' contracts (issue 31). Other keys are ignored.
 */
export const meContactAnswer = z.object({
  realName: z.string(),
  registerMobile: z.nullable(z.string()),
  userPhoneCode: z.nullable(z.string()),
  userPhoneCodeValue: z.nullable(z.string()),
});
export type MeContact = z.infer<typeof meContactAnswer>;

/** In step with meAnswer: this fails to compile when meAnswer types one of these fields differently. */
type Assert<T extends true> = T;
export type MeContactInStepWithMe = Assert<Pick<MeAnswer, keyof MeContact> extends MeContact ? (MeContact extends Pick<MeAnswer, keyof MeContact> ? true : false) : false>;
