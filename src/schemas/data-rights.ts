import * as z from 'zod/mini';
import { callingCodeSchema, codeSchema, emailSchema, mobileSchema } from './contact-fields';

/**
 * Wire contracts of a person's rights over their data (functions/gateway/data-rights/routes.ts), all
 * session-only:
 *
 * - GET  agg-web/user/data → DataRightsState: copies asked for, the separate consents, a closure under way.
 * - POST agg-web/user/data/copy {} → DataRightsState (fresh proof, SU0001; one a day, DR0001 with { nextAt }).
 * - GET  agg-web/user/data/copy/:id → the ZIP file, to its owner only, while ready and younger than 24 hours
 *   (DR0002 for anything else, alike).
 * - POST agg-web/user/data/consent { purpose, granted } → DataRightsState.
 * - POST agg-web/user/data/close {} → DataRightsState (fresh proof; DR0003 { companies } for a last administrator).
 * - POST agg-web/user/data/keep {} → DataRightsState (DR0004 when not closing).
 * - POST agg-web/user/data/contact { kind: 'email', email, code } | { kind: 'phone', callingCode, mobile, code } → null
 *   (fresh proof): a new e-mail or phone, confirmed with the `verify` code sent to it by the ordinary code calls
 *   (getRegVerificationCode type 1; sms/send type 1 after the slider); the old address is told. The code is checked
 *   first (CD00xx); only then DR0008 when another account uses it. DR0009 when it is the account's own already.
 */

/** Ids the server makes: 32 lower-case hex digits. */
export const dataCopyIdSchema = z.string().check(z.regex(/^[0-9a-f]{32}$/));

export const dataCopyStatusSchema = z.enum(['queued', 'building', 'ready', 'failed', 'expired']);
export type DataCopyStatus = z.infer<typeof dataCopyStatusSchema>;

export const dataCopyEntry = z.object({
  id: z.string(),
  status: dataCopyStatusSchema,
  requestedAt: z.number(),
  readyAt: z.nullable(z.number()),
  /** The end of the 24 hours it can be downloaded. */
  expiresAt: z.nullable(z.number()),
  size: z.nullable(z.number()),
  downloadedAt: z.nullable(z.number()),
});
export type DataCopyEntry = z.infer<typeof dataCopyEntry>;

export const CONSENT_PURPOSES = ['tracking'] as const;
export const consentPurposeSchema = z.enum(CONSENT_PURPOSES);
export type ConsentPurpose = z.infer<typeof consentPurposeSchema>;

export const dataRightsState = z.object({
  copies: z.array(dataCopyEntry),
  /** When the next copy may be asked for; null: now. */
  nextCopyAt: z.nullable(z.number()),
  /** The legal texts the person agreed to, with versions and times. */
  agreements: z.array(z.object({ document: z.string(), version: z.string(), agreedAt: z.number() })),
  /** Each separate consent: whether it stands, and the last change (null: never changed, given by default). */
  consents: z.array(z.object({ purpose: consentPurposeSchema, granted: z.boolean(), changedAt: z.nullable(z.number()) })),
  /** The person's companies checked against the business registry, with the latest check's time (issue 42). */
  registryChecked: z.array(z.object({ companyId: z.string(), name: z.string(), checkedAt: z.number() })),
  /** A closure under way: asked at `since`, erasure after `closesAt`. */
  closure: z.nullable(z.object({ since: z.number(), closesAt: z.number() })),
  /** Days of the cooling-off a closure asked now would have (CLOSURE_COOLING_OFF_DAYS). */
  coolingOffDays: z.number(),
  /**
   * A local run (wrangler dev runs no Cron Trigger): a copy asked for waits until the data-rights job is run, which
   * the page offers to do (POST dev/data-rights/run, issue 47). False on a deployed Worker, where the cron runs it.
   */
  localRun: z.boolean(),
});
export type DataRightsState = z.infer<typeof dataRightsState>;

export const dataCopyRequest = z.object({});
export const closeAccountRequest = z.object({});
export const keepAccountRequest = z.object({});
export const contactChangeRequest = z.union([
  z.object({ kind: z.literal('email'), email: emailSchema, code: codeSchema }),
  z.object({ kind: z.literal('phone'), callingCode: callingCodeSchema, mobile: mobileSchema, code: codeSchema }),
]);
export type ContactChangeRequest = z.infer<typeof contactChangeRequest>;
/** "This wasn't me" after an e-mail change: the link's secret (identity/tokens.ts randomToken, base64url of 32 bytes). */
export const contactUndoRequest = z.object({ token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)) });
export type ContactUndoRequest = z.infer<typeof contactUndoRequest>;
/** The address the account names again. */
export const contactUndoAnswer = z.object({ email: z.string() });
export const consentChangeRequest = z.object({ purpose: consentPurposeSchema, granted: z.boolean() });
export type ConsentChangeRequest = z.infer<typeof consentChangeRequest>;

/** DR0003's data: the companies whose last active administrator the person is. */
export const lastAdministratorData = z.object({ companies: z.array(z.object({ companyId: z.string(), name: z.string() })) });

/** The copy's data.json names its format and version (README "A copy of your data"). */
export const EXPORT_FORMAT = 'portal-personal-data';
export const EXPORT_VERSION = 1;
