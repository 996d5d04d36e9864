import type { Messages } from '../en';

/** 通过门户登录其他应用（OpenID Connect）：授权页与“已关联应用”。 */
export const connect: Messages['connect'] = {
  asks: '{app} 请求使用您的门户账号为您登录。',
  willReceive: '该应用将获得：',
  scopes: {
    openid: '您的账号标识（不含手机号或邮箱）',
    profile: '您的姓名和语言',
    email: '您的邮箱地址',
    phone: '您的手机号',
    company: '您当前所在企业：名称、类型、您的角色和可用模块',
    offline_access: '在您离开后继续访问，直至您退出登录或取消关联',
  },
  allow: '允许',
  deny: '取消',
  remembered: '您可以随时在个人中心的“已关联应用”中取消关联。',
  proofNeeded: '{app} 要求您先验证身份。',
  proofNeededTwoFactors: '{app} 要求您通过两步验证或通行密钥验证身份。',
  confirm: '验证身份',
  twoStepNeeded: '{app} 要求开启两步验证。请先在个人中心设置，然后返回该应用。',
  setUpTwoStep: '设置两步验证',
  continuing: '正在返回应用……',
  gone: '此登录请求已过期或已使用，请返回应用重新发起。',
  connectedApps: '已关联应用',
  connectedLead: '您用门户账号登录过的应用，以及各应用可获得的信息。',
  noApps: '您的账号尚未关联任何应用。',
  since: '关联于 {date}',
  lastUsed: '最近使用 {date}',
  disconnect: '取消关联',
  disconnectOne: '取消关联 {app}',
  disconnectText: '{app} 将退出登录，再次获取任何信息前须重新征得您的同意。',
  disconnected: '已取消关联 {app}，该应用已退出登录，下次需重新征得您的同意。',
};
