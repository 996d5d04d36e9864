/**
 * Where a WeChat or WeCom sign-in starts (functions/gateway/wechat/service.ts methodsOf): always on PORTAL_ORIGIN,
 * the one callback domain WeChat allows, since the flow's cookie belongs to the host that started it. Kept free
 * of imports: /login reads `?wechat=` before any WeChat code loads. Where to start instead is wechat-elsewhere.ts,
 * apart, so that /login's first load does not carry it (only the lazy WeChat panel reads it).
 */
export type Method = 'qr' | 'mp' | 'wecom';
const METHODS: readonly string[] = ['qr', 'mp', 'wecom'] satisfies Method[];

/** The method a /login opened by startElsewhere is to start at once, if any. */
export function wechatMethodAsked(search: string): Method | null {
  const asked = new URLSearchParams(search).get('wechat');
  return asked !== null && METHODS.includes(asked) ? (asked as Method) : null;
}
