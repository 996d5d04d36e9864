import type { Messages } from '../en';

export const stepUp: Messages['stepUp'] = {
  title: '验证身份',
  intro: '为了您的账号安全，进行此项更改前请输入密码。',
  introCode: '为了您的账号安全，请先用一次性验证码确认身份。',
  introTwoStep: '为了您的账号安全，进行此项更改前请输入密码，随后还需输入身份验证器应用中的验证码。',
  passwordLabel: '当前密码',
  passwordRequired: '请输入当前密码。',
  showPassword: '显示密码',
  hidePassword: '隐藏密码',
  /** {to} is the account's e-mail or phone, partly hidden. */
  codeIntro: '我们将向 {to} 发送一次性验证码。',
  codeLabel: '验证码',
  codeRequired: '请输入收到的验证码。',
  getCode: '获取验证码',
  resend: '重新发送',
  resendIn: '{s} 秒后可重新发送',
  codeWait: '不到一分钟前您登录时，已向 {to} 发送过验证码。{s} 秒后可重新获取。',
  codeSent: '验证码已发送，5 分钟内有效。',
  secondIntro: '请输入身份验证器应用中的 6 位验证码，或一个恢复码。',
  secondLabel: '验证码或恢复码',
  secondInvalid: '请输入应用显示的 6 位数字，或形如 ABCDE-23456 的恢复码。',
  passkeyAlone: '也可以使用您的通行密钥验证：指纹、面容或屏幕锁。',
  passkeyInstead: '也可以使用您的通行密钥代替验证码。',
  usePasskey: '使用通行密钥',
  passkeyWaiting: '请按设备上的提示操作…',
  passkeyCancelled: '通行密钥请求已取消或超时。请重试，或输入密码或验证码。',
  passkeyFailed: '通行密钥请求未完成。请重试，或输入密码或验证码。',
  continue: '继续',
  confirm: '确认',
  checking: '正在验证…',
  cancel: '取消',
  // Turning two-step off and new recovery codes ask first.
  turnOffTitle: '关闭两步验证？',
  turnOffText: '登录时将不再要求输入身份验证器应用中的验证码，您的恢复码也将失效。',
  newCodesTitle: '生成新的恢复码？',
  newCodesText: '您当前的恢复码将立即失效。',
  // After a password reset by code, above the passkeys in the user center.
  reviewTitle: '您的密码已重置：请检查通行密钥',
  /** {when} is the time of the reset. */
  reviewText: '您的密码已于 {when} 通过一次性验证码重置。通行密钥无需密码即可登录，请删除下方您不认识或已不再持有的通行密钥。',
  reviewDone: '这些通行密钥都是我的',
};
