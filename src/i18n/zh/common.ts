import type { Messages } from '../en';

export const meta: Messages['meta'] = {
  siteName: '航运港口服务平台',
  shortName: '港航门户',
  description: '登录航运港口服务平台：船东、租家、船代、船厂与燃油供应商的统一账号入口。',
};

export const header: Messages['header'] = {
  langToggle: 'English',
  langToggleShort: 'EN',
  langToggleLabel: '切换到英文',
  logout: '退出登录',
  skipToContent: '跳到主要内容',
};

export const browserNotice: Messages['browserNotice'] = {
  text: '为获得最佳体验，请使用 Chrome 64 或 Firefox 63 及以上版本的浏览器。',
  dismiss: '关闭',
};

export const common: Messages['common'] = {
  loading: '加载中…',
  backToLogin: '返回登录',
  footer: '航运港口服务平台',
};

export const pages: Messages['pages'] = {
  login: { title: '登录', lead: '使用手机号或邮箱登录；验证码登录将自动为新用户注册账号。' },
  navigator_login: { title: '合作伙伴登录', lead: '领航合作伙伴使用手机号和密码登录。' },
  register: { title: '注册账号', lead: '使用手机号或邮箱及验证码注册。' },
  join: { title: '加入企业', lead: '请输入企业管理员提供的邀请码。' },
  forget: { title: '找回密码', lead: '通过验证码验证身份后设置新密码。' },
  navigator_forget: { title: '找回合作伙伴密码', lead: '通过验证码验证身份后设置新密码。' },
  account: { title: '选择账号', lead: '请选择要进入的企业与角色。' },
  user_center: { title: '个人中心', lead: '您的个人资料、企业与角色。' },
  create_account: { title: '创建企业', lead: '作为企业管理员，请填写企业信息。' },
  fill_account: { title: '完善企业信息', lead: '请补充企业认证所需的信息。' },
  change_password: { title: '修改密码', lead: '请设置 6 至 18 位字母和数字组成的新密码。' },
  enterprise_adm_and_staff: { title: '企业身份设置', lead: '作为管理员创建企业，或作为员工加入企业。' },
  completion_of_application: { title: '申请已提交', lead: '接下来的步骤如下。' },
  wechat_callback: { title: '微信登录', lead: '正在完成微信或企业微信登录。' },
  company_sso_callback: { title: '公司统一登录', lead: '正在完成通过贵公司身份提供方的登录。' },
  pass_email_login: { title: '邮件链接登录', lead: '通过邮件获取一次性登录链接，或使用已收到的链接登录。' },
  share_login: { title: '分享链接登录', lead: '使用在其他设备上生成的链接，在本设备继续登录。' },
  partner: { title: '合作伙伴工作台', lead: '领航合作伙伴在这里为选择了您的航运企业提供服务。' },
  connect: { title: '登录应用', lead: '有应用请求使用您的门户账号登录。' },
  sign_out: { title: '退出登录', lead: '是否在此浏览器中退出门户？' },
  undo_change: { title: '不是我本人操作', lead: '有人更换了您账号的登录邮箱，您可以在这里恢复原邮箱。' },
  oidc_error: { title: '此登录链接无效', lead: '发起登录的应用未在门户登记，或其回跳地址未经登记。我们未向其提供任何信息。' },
  not_found: { title: '页面不存在', lead: '您访问的页面不存在或已移动。' },
};

export const validation: Messages['validation'] = {
  phoneRequired: '请输入手机号。',
  phoneInvalid: '请输入正确的手机号码。',
  emailRequired: '请输入邮箱。',
  emailInvalid: '邮箱格式不正确。',
  codeRequired: '请输入验证码。',
  passwordRequired: '请输入 6 至 18 位密码。',
  passwordRule: '密码须为 6 至 18 位字母和数字。',
  passwordMismatch: '两次输入的密码必须一致。',
  userIdRequired: '请输入用户 ID。',
  agreementRequired: '请阅读并同意《用户服务协议》。',
  companyNameRequired: '请输入公司名称。',
  companyNameTooLong: '最多 50 个字符',
};

export const errors: Messages['errors'] = {
  generic: '出错了，请稍后重试。',
  network: '网络连接失败，请检查网络后重试。',
  timeout: '请求时间比平时长，请重试。',
  connection: '与服务器的连接中断，请重试。',
  server: '服务器出错了，请稍后重试。',
  reference: '（错误编号：{id}）',
  linkInvalid: '该登录链接无效，请重新获取。',
  registerFailed: '注册失败！',
  /** A name with a bidirectional or zero-width character (the display-text rule; the gateway's GW0422). */
  hiddenCharacters: '名称不能包含不可见字符或改变文字方向的字符。',
};
