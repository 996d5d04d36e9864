import type { Messages } from './en';

/** 中文文案：与 en.ts 同一套键。 */
export const zh: Messages = {
  meta: {
    siteName: '航运港口服务平台',
    shortName: '港航门户',
    description: '登录航运港口服务平台：船东、租家、船代、船厂与燃油供应商的统一账号入口。',
  },
  header: {
    langToggle: 'EN',
    langToggleLabel: '切换到英文',
    logout: '退出登录',
    home: '首页',
  },
  browserNotice: {
    text: '为获得最佳体验，请使用 Chrome 64 或 Firefox 63 及以上版本的浏览器。',
    dismiss: '关闭',
  },
  common: {
    loading: '加载中…',
    backToLogin: '返回登录',
    footer: '航运港口服务平台',
  },
  pages: {
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
    pass_email_login: { title: '正在登录', lead: '正在验证您的邮件登录链接。' },
    share_login: { title: '正在登录', lead: '正在验证您的分享登录链接。' },
    not_found: { title: '页面不存在', lead: '您访问的页面不存在或已移动。' },
  },
};
