import type { Config } from '../../config';

/**
 * What a deployed Worker needs for each WeChat method it turns on, for the startup check: a method is on when
 * its id is set, and then its secret (and WeCom's agent id) must be there too, named when missing.
 */
export function wechatProblems(config: Config): string[] {
  const problems: string[] = [];
  if (config.wechatAppId && !config.wechatAppSecret) problems.push('missing secret WECHAT_APP_SECRET (WeChat QR sign-in is on: WECHAT_APP_ID is set)');
  if (config.wechatMpAppId && !config.wechatMpAppSecret) problems.push('missing secret WECHAT_MP_APP_SECRET (sign-in inside WeChat is on: WECHAT_MP_APP_ID is set)');
  if (config.wecomCorpId && !config.wecomSecret) problems.push('missing secret WECOM_SECRET (WeCom sign-in is on: WECOM_CORP_ID is set)');
  if (config.wecomCorpId && !config.wecomAgentId) problems.push('WECOM_AGENT_ID must be set (WeCom sign-in is on: WECOM_CORP_ID is set)');
  return problems;
}
