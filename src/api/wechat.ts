import * as z from 'zod/mini';
import { loginAnswer } from '../schemas/sign-in-answers';
import {
  socialBindingsAnswer,
  wechatCallbackAnswer,
  wechatMethodsAnswer,
  wechatStartAnswer,
  type SocialProvider,
  type WechatBindPhoneRequest,
  type WechatMethod,
} from '../schemas/wechat';
import { callGateway } from './client';

/** A callback answers either the login answer of every sign-in, or what the flow needs next. */
const callbackAnswer = z.union([loginAnswer, wechatCallbackAnswer]);

/** Signing in with WeChat and WeCom (contracts in src/schemas/wechat.ts). */
export const wechatApi = {
  methods: () => callGateway('agg-web/wechat/methods', wechatMethodsAnswer, { method: 'GET' }),
  start: (method: WechatMethod, profile?: boolean) => callGateway('agg-web/wechat/start', wechatStartAnswer, { body: { method, profile } }),
  callback: (code: string, state: string) => callGateway('agg-web/wechat/callback', callbackAnswer, { body: { code, state } }),
  bindPhone: (body: WechatBindPhoneRequest) => callGateway('agg-web/wechat/bindPhone', loginAnswer, { body }),
  bindings: () => callGateway('agg-web/user/wechat/bindings', socialBindingsAnswer, { method: 'GET' }),
  bind: (method: WechatMethod, profile?: boolean) => callGateway('agg-web/user/wechat/bind', wechatStartAnswer, { body: { method, profile } }),
  unbind: (provider: SocialProvider) => callGateway('agg-web/user/wechat/unbind', z.unknown(), { body: { provider } }),
};
