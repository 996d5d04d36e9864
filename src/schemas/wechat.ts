import * as z from 'zod/mini';
import { checked } from './checked';
import { callingCodeSchema, codeSchema, mobileSchema } from './contact-fields';

/**
 * Wire contracts of signing in with WeChat and WeCom (functions/gateway/wechat/). The secrets of a flow (the
 * browser's half of `state`, the binding ticket) never appear here: the edge keeps them in an HttpOnly cookie.
 */

/** qr: the website QR code (Open Platform); mp: the Official Account inside WeChat's browser; wecom: WeCom web login. */
export const WECHAT_METHODS = ['qr', 'mp', 'wecom'] as const;
export type WechatMethod = (typeof WECHAT_METHODS)[number];
export const SOCIAL_PROVIDERS = ['wechat', 'wecom'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

// GET agg-web/wechat/methods: which methods are on, and whether the WeChat button shows for this visitor.
/** `startAt`: the /login on PORTAL_ORIGIN where every flow starts (WeChat's one callback domain). */
export const wechatMethodsAnswer = z.object({ qr: z.boolean(), mp: z.boolean(), wecom: z.boolean(), shown: z.boolean(), startAt: z.nullable(z.string()) });
export type WechatMethods = z.infer<typeof wechatMethodsAnswer>;

// POST agg-web/wechat/start and agg-web/user/wechat/bind: where the browser goes next.
export const wechatStartRequest = z.object({
  method: z.enum(WECHAT_METHODS),
  /** mp only: snsapi_base (silent) first, snsapi_userinfo when the callback asks for it. */
  profile: z.optional(z.boolean()),
});
export type WechatStartRequest = z.infer<typeof wechatStartRequest>;
export const wechatStartAnswer = z.object({ authorizeUrl: z.string() });

// POST agg-web/wechat/callback: what WeChat sent back to /wechat_callback.
export const wechatCallbackRequest = z.object({
  code: checked(z.string(), z.minLength(1), z.maxLength(256)),
  state: checked(z.string(), z.minLength(16), z.maxLength(256)),
});
export type WechatCallbackRequest = z.infer<typeof wechatCallbackRequest>;

/**
 * The callback's answer when no session starts: `needsPhone` (a person the portal does not know: the phone and
 * its code bind them), `next: 'profile'` (inside WeChat: ask again with snsapi_userinfo) or `bound` (user center, with the `nickname`
 * of the WeChat tied).
 * A known person gets the login answer of every sign-in instead.
 */
export const wechatCallbackAnswer = z.object({
  needsPhone: z.optional(z.boolean()),
  provider: z.optional(z.enum(SOCIAL_PROVIDERS)),
  nickname: z.optional(z.string()),
  next: z.optional(z.literal('profile')),
  bound: z.optional(z.enum(SOCIAL_PROVIDERS)),
  /** A purpose of the flow: 'bind' flows return to the user center. */
  purpose: z.optional(z.enum(['sign-in', 'bind'])),
});
export type WechatCallbackAnswer = z.infer<typeof wechatCallbackAnswer>;

// POST agg-web/wechat/bindPhone: the phone and its sign-in code tie the WeChat to that phone's account
// (registering it when new). The agreement box must be ticked.
export const wechatBindPhoneRequest = z.object({
  mobileCode: callingCodeSchema,
  mobile: mobileSchema,
  code: codeSchema,
  agreed: z.literal(true),
});
export type WechatBindPhoneRequest = z.infer<typeof wechatBindPhoneRequest>;

// GET agg-web/user/wechat/bindings; POST agg-web/user/wechat/unbind { provider }.
export const socialBinding = z.object({ provider: z.enum(SOCIAL_PROVIDERS), nickname: z.string(), createdAt: z.number() });
export type SocialBinding = z.infer<typeof socialBinding>;
export const socialBindingsAnswer = z.array(socialBinding);
export const wechatUnbindRequest = z.object({ provider: z.enum(SOCIAL_PROVIDERS) });
