import type { WorkerMessages } from '../worker';

export const support: WorkerMessages['support'] = {
  lead: '客服：',
  phone: '电话 {phone}',
  email: '邮箱 {email}',
  separator: '，',
  end: '。',
};
