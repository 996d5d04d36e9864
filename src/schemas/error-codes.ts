import type { Lang } from '../lib/lang';

/**
 * Every error code the gateway answers, with its message in both languages and its HTTP status.
 * The islands map codes to these same messages, so a client and the server never disagree.
 */
export const errorCatalogue = {
  GW0400: { status: 400, en: 'The request is not valid.', zh: '请求参数不正确。' },
  GW0401: { status: 400, en: 'The request body is not valid JSON.', zh: '请求内容不是有效的 JSON。' },
  GW0404: { status: 404, en: 'No such API.', zh: '接口不存在。' },
  GW0405: { status: 405, en: 'This method is not allowed here.', zh: '不支持该请求方法。' },
  GW0413: { status: 413, en: 'The request body is too large.', zh: '请求内容过大。' },
  GW0415: { status: 415, en: 'Send the request as application/json.', zh: '请以 application/json 格式提交。' },
  GW0502: { status: 502, en: 'The gateway could not be reached. Please try again.', zh: '网关暂时无法访问，请稍后重试。' },
  SY0500: { status: 500, en: 'Something went wrong. Please try again.', zh: '出错了，请稍后重试。' },
  TK00001: { status: 401, en: 'Your session has ended. Please sign in again.', zh: '登录已失效，请重新登录。' },
  // Users and sign-in (issue 3).
  US0001: { status: 400, en: 'Please enter company name.', zh: '请输入公司名称。' },
  US0002: { status: 400, en: 'Please read and agree to the user agreement.', zh: '请阅读并同意用户协议。' },
  US0003: { status: 409, en: 'This account was just registered by another request. Please sign in again.', zh: '该账号刚刚已被注册，请重新登录。' },
  US0005: { status: 400, en: 'Please enter your mobile number or e-mail address.', zh: '请输入手机号或邮箱。' },
  US0010: { status: 400, en: 'Wrong account or password.', zh: '账号或密码错误。' },
  US0020: { status: 403, en: 'You are not a member of this company.', zh: '您不是该企业的成员。' },
  // Spec 8: counts as success at the general level; the client fetches the salt and signs in again.
  SY9990: { status: 200, en: 'Please sign in again with the salted password.', zh: '请使用加盐密码重新登录。' },
  // Passwords (issue 3).
  PW0002: { status: 400, en: 'This password is too common. Please choose another one.', zh: '该密码过于常见，请更换。' },
  // One-time codes (issue 3). `data` of CD0001 is { retryAfter: seconds }; of CD0010 { triesLeft }.
  CD0001: { status: 429, en: 'Please wait a moment before asking for a new code.', zh: '请稍后再获取验证码。' },
  CD0002: { status: 429, en: 'Too many codes were sent to this number or address. Please try again in an hour.', zh: '该号码或邮箱获取验证码过于频繁，请一小时后再试。' },
  CD0003: { status: 429, en: 'Too many code requests from your network. Please try again in an hour.', zh: '当前网络获取验证码过于频繁，请一小时后再试。' },
  CD0010: { status: 400, en: 'Wrong verification code.', zh: '验证码错误。' },
  CD0011: { status: 400, en: 'The verification code has expired. Please get a new one.', zh: '验证码已过期，请重新获取。' },
  CD0012: { status: 400, en: 'Too many wrong attempts. Please get a new verification code.', zh: '验证码错误次数过多，请重新获取。' },
  CD0013: { status: 400, en: 'Please get a verification code first.', zh: '请先获取验证码。' },
  CD0014: { status: 400, en: 'This verification code has already been used. Please get a new one.', zh: '该验证码已使用，请重新获取。' },
  CD0020: { status: 502, en: 'Could not send the code. Please try again.', zh: '验证码发送失败，请重试。' },
  // Slider captcha (issue 3).
  CP0001: { status: 400, en: 'Verification failed, please try again.', zh: '验证失败，请重试。' },
  CP0002: { status: 400, en: 'The verification has expired, please try again.', zh: '验证已过期，请重试。' },
  CP0003: { status: 400, en: 'Slider check failed, please slide again.', zh: '滑块验证未通过，请重新滑动。' },
  // Phone and e-mail input (issue 3, spec 5 and 8).
  PH0001: { status: 400, en: 'Please enter right mobile phone number.', zh: '请输入正确的手机号码。' },
  PH0002: { status: 400, en: 'Invalid e-mail format.', zh: '邮箱格式不正确。' },
  // Legal documents (issue 7).
  LG0001: {
    status: 400,
    en: 'Unknown agreement: platformCode must be 1 and type 0 (privacy policy) or 1 (terms of service).',
    zh: '协议类型无效：platformCode 须为 1，type 须为 0（隐私政策）或 1（用户服务协议）。',
  },
} as const satisfies Record<string, { status: number; en: string; zh: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export function errorMessage(code: ErrorCode, lang: Lang): string {
  return errorCatalogue[code][lang];
}
