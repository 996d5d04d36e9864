import type { WorkerMessages } from '../worker';

export const handoff: WorkerMessages['handoff'] = {
  title: '该登录链接无法使用',
  invalid: '链接已损坏或不属于本站，请返回后重试。',
  expired: '链接已过期。站点之间的跳转链接一分钟内有效。',
  replayed: '链接已被使用，每个链接只能使用一次。',
  credentials: '从其他站点传来的登录信息未通过验证，请在本站登录。',
  blocked: '该账号已被停用，请联系客服。',
  backToLogin: '前往登录',
  switchTitle: '您要使用哪个账号？',
  switchBody: '此浏览器已登录一个账号，您打开的链接将登录另一个账号。',
  switchHint: '如果这个链接不是您本人打开的，请保留当前账号。',
  keepCurrent: '保留当前账号',
  continueOther: '切换到另一个账号',
};
