import * as z from 'zod/mini';
import type { Lang } from '../lib/lang';

// The decision's shape lives in review-outcome-schema.ts (the contracts read it without the words below).
export { reviewOutcomeSchema, type ReviewOutcome } from './review-outcome-schema';

export const REVIEW_REASONS = [
  'documentsUnreadable',
  'documentsMismatch',
  'companyUnknown',
  'licenceMissing',
  'creditCodeMismatch',
  'gtcMissing',
  'contactUnreachable',
  'fraudSuspected',
  'termsBreached',
  'requestedByCompany',
  'licenceExpired',
  'inactive',
  'registryNotOperating',
  'other',
] as const;
export const reviewReasonSchema = z.enum(REVIEW_REASONS);
export type ReviewReason = z.infer<typeof reviewReasonSchema>;

/** The reason templates as the administrator reads them (notification, /account, /fill_account) and operators pick them. */
export const REVIEW_REASON_TEXT: Record<ReviewReason, Record<Lang, string>> = {
  documentsUnreadable: { en: 'The uploaded documents cannot be read.', zh: '上传的材料无法辨认。' },
  documentsMismatch: { en: 'The documents do not match the company details entered.', zh: '材料与填写的企业信息不一致。' },
  companyUnknown: { en: 'The company could not be found in the public business registers.', zh: '在公开的企业登记信息中未能查到该企业。' },
  licenceMissing: { en: 'The business licence is missing or incomplete.', zh: '营业执照缺失或不完整。' },
  creditCodeMismatch: { en: 'The unified social credit code does not match the licence.', zh: '统一社会信用代码与营业执照不一致。' },
  gtcMissing: { en: 'The fuel-supply general terms and conditions are missing.', zh: '缺少燃油供应通用条款。' },
  contactUnreachable: { en: 'We could not reach the contact person given.', zh: '无法联系到填写的联系人。' },
  fraudSuspected: { en: 'We suspect the company details are not genuine.', zh: '企业信息疑似不真实。' },
  termsBreached: { en: 'The platform Terms of Service were breached.', zh: '违反了平台《用户服务协议》。' },
  requestedByCompany: { en: 'The company asked for it.', zh: '应企业要求。' },
  licenceExpired: { en: 'The business licence has expired.', zh: '营业执照已过期。' },
  inactive: { en: 'The company has not used the platform for a long time.', zh: '企业长期未使用平台。' },
  registryNotOperating: {
    en: 'The business registry lists the company as no longer operating (deregistered, revoked, cancelled or suspended).',
    zh: '国家企业登记信息显示该企业已不在营业状态（注销、吊销、撤销或停业）。',
  },
  other: { en: 'Other reason.', zh: '其他原因。' },
};

/** The words of a decision's reason: the template in `lang`, then the operator's note. */
export function reviewReasonText(lang: Lang, reason: string | null, note: string | null): string {
  const template = reason && reason !== 'other' && reason in REVIEW_REASON_TEXT ? REVIEW_REASON_TEXT[reason as ReviewReason][lang] : '';
  return [template, note ?? ''].filter(Boolean).join(' ');
}

/** An audit row's reason, "template: words" for a review decision: the template reads in `lang` (issue 33). */
export function auditReasonText(lang: Lang, reason: string): string {
  const [key, ...rest] = reason.split(': ');
  if (!key || !(key in REVIEW_REASON_TEXT)) return reason;
  return [REVIEW_REASON_TEXT[key as ReviewReason][lang], rest.join(': ')].filter(Boolean).join(' ');
}
