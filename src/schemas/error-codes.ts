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
} as const satisfies Record<string, { status: number; en: string; zh: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export function errorMessage(code: ErrorCode, lang: Lang): string {
  return errorCatalogue[code][lang];
}
