import { ERR } from '../../../src/schemas/error-codes';

/**
 * What a support "view as" session (issue 44) may call. One decision, made where a session is resolved
 * (sessions/service.ts sessionFromRequest), for every call that reads a person's session:
 *
 * - Never (SV0001), whatever an administrator allowed: security settings (password, two-step and recovery codes,
 *   passkeys, devices, sessions and the account's activity, proofs, phone and e-mail, data rights and closure,
 *   WeChat, sign-in links, connected apps, the support code itself and the person's list and End of views) and the calls that show a secret once (a
 *   webhook secret, an API client's secret).
 * - A change (any method but GET, HEAD) is refused (SV0002) unless an operator administrator allowed changes for this
 *   session (`support_writable`). Ending it (support/end, the logout, which reads its session elsewhere), choosing
 *   the account in use and the calls that read by POST are no changes.
 * - The operators' console is another cookie altogether: a person's session opens no /ops call (OP0001).
 */
const NEVER: readonly RegExp[] = [
  /^\/agg-web\/user\/security(\/|$)/,
  /^\/agg-web\/user\/twoStep(\/|$)/,
  /^\/agg-web\/company\/twoStep$/,
  /^\/agg-web\/passkeys(\/|$)/,
  /^\/agg-web\/user\/proof(\/|$)/,
  /^\/agg-web\/user\/changePassword$/,
  /^\/agg-web\/user\/password(\/|$)/,
  /^\/agg-web\/user\/data(\/|$)/,
  /^\/agg-web\/user\/contact(\/|$)/,
  /^\/agg-web\/user\/wechat(\/|$)/,
  /^\/agg-web\/user\/shareLogin(\/|$)/,
  /^\/agg-web\/user\/support\/code$/,
  /^\/agg-web\/user\/support\/views(\/|$)/,
  /^\/agg-web\/company\/webhooks\/(add|rotate)$/,
  /^\/agg-web\/api-clients\/create$/,
  /^\/oidc\/v1\/connected(\/|$)/,
];

/** Calls by another method than GET that change nothing of the person's: reads, the account in use, the end. */
const NO_CHANGE: readonly RegExp[] = [
  /^\/agg-web\/user\/support\/end$/,
  /^\/agg-web\/user\/chooseAccount$/,
  /^\/agg-web\/user\/actingChoices$/,
  /^\/c\/user\/v2\/getCompanyListByToken$/,
  /^\/agg-web\/quick\/user\/findUserLoginCase$/,
  /^\/agg-web\/company\/grants\/(list|companies)$/,
  /^\/agg-web\/company\/vessels\/list$/,
];
// Signing in to a trusted app from a view needs no call here (its tokens say support acts: `act`, oidc/token.ts);
// answering an app's consent page remembers a consent of the person's, a change like any other.

export interface SupportMark {
  support_operator_id?: string | null;
  support_writable?: number | null;
}

/** Whether the call is a change of the person's (to be allowed and then recorded) rather than a read. */
export function isSupportChange(method: string, path: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && !NO_CHANGE.some((pattern) => pattern.test(path));
}

/** The refusal of this call in this session, or null: always null outside a support "view as". */
export function supportViewRefusal(session: SupportMark, method: string, path: string): typeof ERR.SUPPORT_VIEW_REFUSED | typeof ERR.SUPPORT_VIEW_READ_ONLY | null {
  if (!session.support_operator_id) return null;
  if (NEVER.some((pattern) => pattern.test(path))) return ERR.SUPPORT_VIEW_REFUSED;
  if (isSupportChange(method, path) && session.support_writable !== 1) return ERR.SUPPORT_VIEW_READ_ONLY;
  return null;
}
