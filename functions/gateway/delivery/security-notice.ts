import type { Lang } from '../../../src/lib/lang';
import { configOf } from '../../config';
import { findUserById } from '../identity/db/people';
import { deliver, type DeliveryEnv } from './index';
import { cappedInsert } from '../identity/db/limits';
import { GatewayError } from '../errors';
import { ERR } from '../../../src/schemas/error-codes';
import { noticeTime } from '../../../src/lib/notice-time';

/**
 * The notice of a new way into the account (security baseline "Proving it's you again"): a new passkey, an
 * authenticator app (two-step turned on), a new set of recovery codes, or a linked WeChat or WeCom. Sent like the new-device notice
 * (sign-in-history.ts): to the account's e-mail, else by SMS, in the language of the change, with a link to the
 * Security section built on PORTAL_ORIGIN. A refused delivery does not undo the change.
 */
export type SecurityChange = 'passkeyAdded' | 'twoStepOn' | 'recoveryCodes' | 'emailChanged' | 'phoneChanged' | 'wechatBound' | 'wecomBound' | 'erasureSkipped' | 'deviceTrusted' | 'supportViewStarted' | 'supportViewEnded';

/**
 * What changed, as a whole sentence with its time (`{when}`, zone named) and the account as its subject, so no
 * change reads "…belongs to the account on your account". The SMS template form takes `change` without the time.
 */
const CHANGES: Record<SecurityChange, Record<Lang, string>> = {
  passkeyAdded: { zh: '添加了一个新的通行密钥', en: 'a new passkey was added to your account' },
  twoStepOn: { zh: '开启了两步验证并绑定了身份验证器应用', en: 'two-step verification was turned on for your account with an authenticator app' },
  recoveryCodes: { zh: '生成了一组新的恢复码', en: 'a new set of recovery codes was made for your account' },
  emailChanged: { zh: '更换了登录邮箱，本邮箱已不再属于该账号', en: 'the e-mail address of your account was changed; this address no longer belongs to it' },
  phoneChanged: { zh: '更换了手机号，本号码已不再属于该账号', en: 'the mobile number of your account was changed; this number no longer belongs to it' },
  // The WeChat nickname is not in the notice: it is whatever its owner typed, and would speak in our name.
  wechatBound: { zh: '绑定了一个微信账号，可用它扫码登录', en: 'a WeChat account was linked to your account and can now sign in to it' },
  wecomBound: { zh: '绑定了一个企业微信账号，可用它登录', en: 'a WeCom account was linked to your account and can now sign in to it' },
  // "Trust this device for 30 days" (devices/service.ts): the device skips the second step from now on.
  deviceTrusted: { zh: '将一台设备设为受信任设备，30 天内在该设备上登录无需再次验证', en: 'a device was trusted for 30 days: signing in on it skips the second step' },
  // The closing of the account was not completed (data-rights/service.ts tellSkippedErasures).
  // Support "view as" (issue 44, support/service.ts): the person is told when it starts and when it ends.
  supportViewStarted: {
    zh: '开始由平台客服代为查看（只读，最长 30 分钟）',
    en: 'platform support started viewing your account as you see it (read-only, at most 30 minutes)',
  },
  supportViewEnded: { zh: '结束了平台客服的代为查看', en: 'platform support stopped viewing your account' },
  erasureSkipped: {
    zh: '的注销未能完成：您仍是一家企业的最后一位管理员。请先指定另一位管理员，或联系客服',
    en: 'the closing of your account was held back, as you are still the last administrator of a company (name another administrator first)',
  },
};

/** The change of a newly linked WeChat or WeCom. */
export const socialBoundChange = (provider: 'wechat' | 'wecom'): SecurityChange => (provider === 'wechat' ? 'wechatBound' : 'wecomBound');

/**
 * The localised notice; its template SMS form: when and what changed. `when` names its zone (notice-time.ts).
 * `link` opens the Security section; `undo` (a changed e-mail or phone, told at the old address) is the
 * "This wasn't me" link that works without signing in.
 */
export function securityChangeMessage(lang: Lang, { when, change, link, undo = null }: { when: string; change: SecurityChange; link: string | null; undo?: string | null }) {
  const what = CHANGES[change][lang];
  const form = { kind: 'securityChange' as const, lang, params: { when, change: what } };
  if (lang === 'zh') {
    const act = undo
      ? `如果不是您本人，请在 72 小时内打开以下链接（无需登录），恢复本邮箱，让该账号在所有设备上退出并停用其密码：\n${undo}`
      : `如果不是，请立即修改密码并检查安全设置${link ? `：\n${link}` : '。'}`;
    return { ...form, subject: '账号安全设置变更提醒', text: `您的账号于 ${when}${what}。\n如果是您本人，无需处理。${act}` };
  }
  const act = undo
    ? `If this wasn't you, open this link within 72 hours (no sign-in needed) to put this address back, sign the account out everywhere and turn its password off:\n${undo}`
    : `If not, change your password and check your security settings now${link ? `:\n${link}` : '.'}`;
  return { ...form, subject: 'A security change on your account', text: `On ${when}, ${what}.\nIf this was you, there is nothing to do. ${act}` };
}

/** One notice per person and kind within this wait: a burst of changes (fifty parallel new code sets) is one message. */
export const SECURITY_NOTICE_WAIT_MS = 10 * 60 * 1000;

/**
 * Kinds told every time, never folded into an earlier notice: each support "view as" (issue 44) is one event the
 * person consented to and must hear of, start and end, however soon another follows. Their callers bound them
 * (a view needs a fresh single-use code or approval).
 */
const TOLD_EVERY_TIME: ReadonlySet<SecurityChange> = new Set(['supportViewStarted', 'supportViewEnded']);

export async function sendSecurityNotice(
  env: DeliveryEnv,
  {
    userId,
    at,
    change,
    lang,
    to: told,
    undo = null,
  }: { userId: string; at: number; change: SecurityChange; lang: Lang; to?: { channel: 'email' | 'sms'; to: string }; undo?: string | null },
) {
  try {
    if (!TOLD_EVERY_TIME.has(change)) await cappedInsert(env.DB, {
      table: 'security_notices',
      row: { user_id: userId, kind: change, created_at: at },
      wait: { where: { user_id: userId, kind: change }, since: at - SECURITY_NOTICE_WAIT_MS, code: ERR.CODE_RESEND_WAIT },
      caps: [],
    });
  } catch (error) {
    // Told already within the wait: the change stands, the person has the notice of the first one.
    if (error instanceof GatewayError) return;
    throw error;
  }
  const user = await findUserById(env.DB, userId);
  // A changed phone or e-mail is told at the OLD address (`told`), which the account no longer names.
  const to = told ?? (user?.email ? { channel: 'email' as const, to: user.email } : user?.phone_e164 ? { channel: 'sms' as const, to: user.phone_e164 } : null);
  if (!to) return;
  const origin = configOf(env).portalOrigin;
  const message = securityChangeMessage(lang, { when: noticeTime(at, lang), change, link: origin ? `${origin}/user_center#security` : null, undo });
  try {
    await deliver(env, { ...to, ...message }, { now: at });
  } catch (error) {
    console.error('security notice not delivered', error instanceof Error ? error.message : error);
  }
}
