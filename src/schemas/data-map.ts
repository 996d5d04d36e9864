/**
 * What the portal holds about a person, by category: the ONE table behind "Your data" in the user center, the
 * privacy policy's table (src/pages/[locale]/legal/[doc].astro) and the copy of a person's data (each category is
 * a key of the export's JSON). The words of each row (name, what, purpose, how long) are in
 * src/i18n/<lang>/data-rights.ts under the same key; `keptDays` is what the code does, checked by tests against
 * functions/gateway/maintenance/prune.ts where a table is pruned.
 *
 * "contact" (phone, e-mail) is also in short-lived tables keyed by it (codes, wrong guesses, slider checks, the
 * e-mail way-out tickets of an SMS outage, sign-in links), each pruned within days and erased with the account
 * (functions/gateway/data-rights/db.ts erasureStatements). A new kind of personal data gets its row here first. "connectedApps" are the OpenID Provider's consents and
 * grants (functions/gateway/oidc/); the erasure tells each app and ends its grants first.
 */
export const DATA_CATEGORIES = [
  'profile',
  'contact',
  'companies',
  'sessions',
  'signIns',
  'consents',
  'files',
  'secondFactors',
  'connectedApps',
  'linkedAccounts',
  'activity',
] as const;
export type DataCategory = (typeof DATA_CATEGORIES)[number];

/** How long a category is kept: while the account lives (erased at its closure), or a number of days. */
export type Retention = { until: 'account' } | { until: 'days'; days: number } | { until: 'audit' };

export interface DataMapRow {
  category: DataCategory;
  retention: Retention;
  /** The person can change it themselves in the user center. */
  correctable: boolean;
}

export const DATA_MAP: readonly DataMapRow[] = [
  { category: 'profile', retention: { until: 'account' }, correctable: true },
  { category: 'contact', retention: { until: 'account' }, correctable: false },
  { category: 'companies', retention: { until: 'account' }, correctable: false },
  // Sessions end after 7 days at most (SESSION_ABSOLUTE_TIMEOUT) and their rows go a day later.
  { category: 'sessions', retention: { until: 'days', days: 8 }, correctable: false },
  { category: 'signIns', retention: { until: 'days', days: 90 }, correctable: false },
  { category: 'consents', retention: { until: 'account' }, correctable: true },
  { category: 'files', retention: { until: 'account' }, correctable: true },
  { category: 'secondFactors', retention: { until: 'account' }, correctable: true },
  { category: 'connectedApps', retention: { until: 'account' }, correctable: true },
  // WeChat and WeCom tied to the account (functions/gateway/wechat/): the person unbinds them in the user center.
  { category: 'linkedAccounts', retention: { until: 'account' }, correctable: true },
  // The audit trail is never pruned; at erasure its rows keep only the account's random id.
  { category: 'activity', retention: { until: 'audit' }, correctable: false },
];

/** Hours a copy of a person's data can be downloaded once it is ready. */
export const DATA_COPY_HOURS = 24;
