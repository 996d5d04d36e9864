import type { LegalDoc } from '../../../src/lib/legal';
import { legalVersions } from '../generated/legal-versions';
import { consentInsertStatements, termsAgreedStatement } from './db';

/** The current version of each document; tests pass another set to play a version bump. */
export type LegalVersions = Readonly<Record<LegalDoc, string>>;

/** What a person agrees to when registering or ticking the agreement box. */
export const defaultConsentDocs: readonly LegalDoc[] = ['terms', 'privacy'];

/**
 * Records that `userId` agreed, at `now` (epoch ms), to the current version of each of `docs`.
 * Idempotent: agreeing again to a version already recorded keeps the first time.
 */
export async function recordConsent(
  db: D1Database,
  userId: string,
  now: number,
  docs: readonly LegalDoc[] = defaultConsentDocs,
  versions: LegalVersions = legalVersions,
): Promise<void> {
  if (!docs.length) return;
  // One batch: all documents are recorded, or none.
  await db.batch(consentStatements(db, userId, now, docs, versions));
}

/** The INSERTs of recordConsent, for callers that write them in their own batch (a registration). */
export function consentStatements(
  db: D1Database,
  userId: string,
  now: number,
  docs: readonly LegalDoc[] = defaultConsentDocs,
  versions: LegalVersions = legalVersions,
): D1PreparedStatement[] {
  return consentInsertStatements(
    db,
    userId,
    docs.map((doc) => ({ document: doc, version: versions[doc] })),
    now,
  );
}

/** needsConsent's read, for a caller that batches it with its own (a sign-in's first read); see consentOwedIn. */
export function currentTermsAgreedStatement(db: D1Database, userId: string, versions: LegalVersions = legalVersions): D1PreparedStatement {
  return termsAgreedStatement(db, userId, versions.terms);
}

/** needsConsent from the result of currentTermsAgreedStatement. */
export function consentOwedIn(result: D1Result | undefined): boolean {
  return (result?.results.length ?? 0) === 0;
}

/**
 * True when `userId` has not agreed to the current version of the terms: the sign-in asks them to agree
 * (again) before going on. Raising `version` in content/legal/{zh,en}/terms.md makes it true for everyone.
 */
export async function needsConsent(db: D1Database, userId: string, versions: LegalVersions = legalVersions): Promise<boolean> {
  return consentOwedIn(await currentTermsAgreedStatement(db, userId, versions).all());
}
