/**
 * The tracking contract shared by the pages (src/lib/tracking.ts) and the gateway (tracking/routes.ts):
 * `agg-web/buriedPoint/add`, the platform's tracking version, and how many events one call may carry.
 * Plain values, no zod: the pages' tracking module stays tiny.
 */
export const TRACKING_VERSION = '9.3.11';
/** Events in one call (a JSON array): the pages send theirs in one beacon. */
export const TRACKING_BATCH_MAX = 20;
