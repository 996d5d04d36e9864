import * as z from 'zod/mini';
import { checked } from './checked';

/**
 * `GET agg-web/protocol/queryUserProtocol` (portal-spec.md §7 names the call, not its path): which agreement
 * the sign-in screen's modal frames. platformCode 1 is this platform; type 0 the privacy policy, 1 the terms.
 * Query values arrive as strings.
 */
export const queryUserProtocolQuery = z.object({
  platformCode: z.literal('1'),
  type: z.enum(['0', '1']),
});
export type QueryUserProtocolQuery = z.infer<typeof queryUserProtocolQuery>;

/** The agreement link: absolute paths of the page in each language, plus the version agreed to. */
export const userProtocolAnswer = z.object({
  urlCn: checked(z.string(), z.startsWith('/')),
  urlEn: checked(z.string(), z.startsWith('/')),
  version: checked(z.string(), z.regex(/^\d+\.\d+\.\d+$/)),
});
export type UserProtocolAnswer = z.infer<typeof userProtocolAnswer>;

/** The documents a consent can name (the same as `legalDocs` in src/lib/legal.ts). */
export const consentDocument = z.enum(['terms', 'privacy', 'disclaimer', 'registration']);
