import type { Messages } from '../en';

export const companyTypes: Messages['companyTypes'] = {
  shipOwner: '船东',
  charterer: '租家',
  shipAgent: '船舶代理',
  shipyard: '船厂',
  fuelSupplier: '燃油供应商',
  voyageManager: '航次管理',
};

export const statuses: Messages['statuses'] = {
  approving: '审核中',
  notVerified: '未认证',
  verified: '已认证',
  verificationFailed: '认证失败',
  additionalInformationRequired: '待补充资料',
  pendingToBind: '待绑定',
  failToBind: '绑定失败',
  blocked: '已冻结',
  expired: '已过期',
};
