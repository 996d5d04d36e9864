import type { Messages } from '../en';

export const legal: Messages['legal'] = {
  version: '版本',
  effective: '生效日期',
  contents: '目录',
  otherDocs: '法律文件',
  langSwitch: 'English',
  langSwitchLabel: '阅读英文版',
  docs: { terms: '用户服务协议', privacy: '隐私政策', disclaimer: '免责声明', registration: '注册协议' },
};
