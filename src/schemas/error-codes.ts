import * as errorNames from './error-names';
import type { Lang } from '../lib/lang';

/**
 * Every error code the gateway answers, with its message in both languages and its HTTP status.
 * The islands map codes to these same messages, so a client and the server never disagree.
 */
export const errorCatalogue = {
  GW0400: { status: 400, en: 'The request is not valid.', zh: '请求参数不正确。' },
  GW0401: { status: 400, en: 'The request body is not valid JSON.', zh: '请求内容不是有效的 JSON。' },
  GW0403: { status: 403, en: 'This request was sent from another site and was refused.', zh: '该请求来自其他网站，已被拒绝。' },
  GW0404: { status: 404, en: 'No such API.', zh: '接口不存在。' },
  GW0405: { status: 405, en: 'This method is not allowed here.', zh: '不支持该请求方法。' },
  GW0413: { status: 413, en: 'The request body is too large.', zh: '请求内容过大。' },
  GW0422: {
    status: 400,
    en: 'Names cannot contain invisible characters or characters that change the text direction.',
    zh: '名称不能包含不可见字符或改变文字方向的字符。',
  },
  GW0415: { status: 415, en: 'Send the request as application/json.', zh: '请以 application/json 格式提交。' },
  GW0502: { status: 502, en: 'The gateway could not be reached. Please try again.', zh: '网关暂时无法访问，请稍后重试。' },
  GW0504: { status: 504, en: 'The gateway did not answer in time. Please try again.', zh: '网关响应超时，请稍后重试。' },
  SY0500: { status: 500, en: 'Something went wrong on our side. Please try again.', zh: '服务器出错了，请稍后重试。' },
  TK00001: { status: 401, en: 'Your session has ended. Please sign in again.', zh: '登录已失效，请重新登录。' },
  // Users and sign-in.
  US0001: { status: 400, en: 'Please enter company name.', zh: '请输入公司名称。' },
  US0002: { status: 400, en: 'Please read and agree to the Terms of Service.', zh: '请阅读并同意《用户服务协议》。' },
  US0003: { status: 409, en: 'This account was just registered by another request. Please sign in again.', zh: '该账号刚刚已被注册，请重新登录。' },
  US0005: { status: 400, en: 'Please enter your mobile number or e-mail address.', zh: '请输入手机号或邮箱。' },
  US0010: { status: 400, en: 'Wrong account or password.', zh: '账号或密码错误。' },
  // checkIsNewUser tells whether an account exists, so it is capped per name and per client network.
  US0040: { status: 429, en: 'Too many checks. Please try again in an hour.', zh: '查询过于频繁，请一小时后再试。' },
  US0020: { status: 403, en: 'You are not a member of this company.', zh: '您不是该企业的成员。' },
  // Own profile (updateUserInfo). `data` is { path } for the form; an unknown country answers CO0004.
  US0031: { status: 400, en: 'Please enter a past date as your birthday, not before 1 January 1900.', zh: '生日须为过去的日期，且不早于 1900 年 1 月 1 日。' },
  // Counts as success at the general level; the client fetches the salt and signs in again.
  SY9990: { status: 200, en: 'Please sign in again with the salted password.', zh: '请使用加盐密码重新登录。' },
  // Passwords.
  PW0001: { status: 400, en: 'Please use 6 to 18 letters and digits for the password.', zh: '密码须为 6 至 18 位字母或数字。' },
  PW0002: { status: 400, en: 'This password is too common. Please choose another one.', zh: '该密码过于常见，请更换。' },
  // "Confirm it's you" with the current password (functions/gateway/identity/proof.ts; the SU codes below).
  PW0003: { status: 400, en: 'The current password is wrong.', zh: '当前密码错误。' },
  // The password change asks the current password on the change itself (ASVS 5.0 V6.2.3), whatever the proof's age.
  PW0004: { status: 400, en: 'Please enter your current password.', zh: '请输入当前密码。' },
  // The offline breached-password check (issue 44): a password found in known data breaches, and the check unable to run.
  PW0005: { status: 400, en: 'This password has appeared in a data breach, so others may try it. Please choose another one.', zh: '该密码曾出现在数据泄露中，可能被他人尝试，请更换。' },
  PW0006: { status: 503, en: 'We cannot check new passwords right now. Please try again in a few minutes.', zh: '暂时无法检查新密码，请几分钟后再试。' },
  // One-time codes. `data` of CD0001 is { retryAfter: seconds }; of CD0010 { triesLeft }.
  CD0001: { status: 429, en: 'Please wait a moment before asking for a new code.', zh: '请稍后再获取验证码。' },
  CD0002: { status: 429, en: 'Too many codes were sent to this number or address. Please try again in an hour.', zh: '该号码或邮箱获取验证码过于频繁，请一小时后再试。' },
  CD0003: { status: 429, en: 'Too many code requests from your network. Please try again in an hour.', zh: '当前网络获取验证码过于频繁，请一小时后再试。' },
  // SMS anti-pumping: sends per destination calling code per hour, and all SMS per day (wrangler.toml vars).
  CD0004: {
    status: 429,
    en: 'Too many text messages are going to this country or region right now. Please try again later or use your e-mail address.',
    zh: '发往该国家或地区的短信过多，请稍后再试或使用邮箱。',
  },
  CD0005: { status: 429, en: 'Text messages cannot be sent right now. Please try again later or use your e-mail address.', zh: '短信暂时无法发送，请稍后再试或使用邮箱。' },
  CD0010: { status: 400, en: 'Wrong verification code.', zh: '验证码错误。' },
  CD0011: { status: 400, en: 'The verification code has expired. Please get a new one.', zh: '验证码已过期，请重新获取。' },
  CD0012: { status: 400, en: 'Too many wrong attempts. Please get a new verification code.', zh: '验证码错误次数过多，请重新获取。' },
  CD0013: { status: 400, en: 'Please get a verification code first.', zh: '请先获取验证码。' },
  CD0014: { status: 400, en: 'This verification code has already been used. Please get a new one.', zh: '该验证码已使用，请重新获取。' },
  // Wrong guesses per recipient and per client network per hour; a new code does not reset them.
  CD0015: { status: 429, en: 'Too many wrong codes for this number or address. Please try again in an hour.', zh: '该号码或邮箱的验证码错误次数过多，请一小时后再试。' },
  CD0016: { status: 429, en: 'Too many wrong codes from your network. Please try again in an hour.', zh: '当前网络的验证码错误次数过多，请一小时后再试。' },
  // Delivery: the SMS or e-mail provider did not take the message (delivery/). The code is withdrawn,
  // so the person may ask again at once, and the failed send does not count against the send caps.
  DL0001: { status: 502, en: 'The message could not be sent. Please try again.', zh: '消息发送失败，请重试。' },
  DL0002: {
    status: 400,
    en: 'Messages cannot be delivered to this number or address. Please check it and try again.',
    zh: '无法向该号码或邮箱发送消息，请检查后重试。',
  },
  DL0003: { status: 503, en: 'The message service is busy. Please try again in a minute.', zh: '消息服务繁忙，请一分钟后再试。' },
  // Failover (delivery/index.ts): every SMS provider of the number's list failed, timed out, was throttled or is
  // skipped by its breaker. Its data carries a ticket for the e-mail offer (codes/fallback.ts).
  DL0010: {
    status: 503,
    en: 'Text messages cannot be sent at the moment: none of our SMS services is working. Please use e-mail, a password or a passkey instead, or try again later.',
    zh: '短信暂时无法发送：我们的短信服务目前都不可用。请改用邮箱、密码或通行密钥，或稍后再试。',
  },
  DL0011: { status: 400, en: 'This offer has expired. Please ask for a code again.', zh: '该选项已失效，请重新获取验证码。' },
  // Provider status callbacks (delivery/receipts.ts): unsigned, forged, stale or replayed ones are refused.
  DL0012: { status: 401, en: 'The delivery receipt could not be verified.', zh: '送达回执校验失败。' },
  DL0013: { status: 409, en: 'This delivery receipt was already received.', zh: '该送达回执已接收。' },
  // Slider captcha.
  CP0001: { status: 400, en: 'Verification failed, please try again.', zh: '验证失败，请重试。' },
  CP0002: { status: 400, en: 'The verification has expired, please try again.', zh: '验证已过期，请重试。' },
  CP0003: { status: 400, en: 'Slider check failed, please slide again.', zh: '滑块验证未通过，请重新滑动。' },
  // Human check limits and proof of work (they slow scripted sign-ups). A limit's wait is the rest of the hour.
  CP0004: { status: 400, en: 'The security check was not completed. Please try again.', zh: '安全校验未完成，请重试。' },
  // CP0005–CP0008: `data` is { retryAfter: seconds } until the hour frees a place; the slider dialog says the wait.
  CP0005: { status: 429, en: 'Too many security checks from your network.', zh: '当前网络安全验证过于频繁。' },
  CP0006: { status: 429, en: 'Too many security checks for this account or number.', zh: '该账号或号码安全验证过于频繁。' },
  CP0007: { status: 429, en: 'Too many failed security checks from your network.', zh: '当前网络安全验证失败次数过多。' },
  CP0008: { status: 429, en: 'Too many failed security checks for this account or number.', zh: '该账号或号码安全验证失败次数过多。' },
  CP0009: { status: 503, en: 'The verification service is unavailable. Please try again later.', zh: '验证服务暂时不可用，请稍后再试。' },
  // Phone and e-mail input.
  PH0001: { status: 400, en: 'Please enter right mobile phone number.', zh: '请输入正确的手机号码。' },
  PH0002: { status: 400, en: 'Invalid e-mail format.', zh: '邮箱格式不正确。' },
  // Legal documents.
  LG0001: {
    status: 400,
    en: 'Unknown agreement: platformCode must be 1 and type 0 (privacy policy) or 1 (terms of service).',
    zh: '协议类型无效：platformCode 须为 1，type 须为 0（隐私政策）或 1（用户服务协议）。',
  },
  // Companies. CO0002/CO0003 and file problems carry `data` { path } (or { ids }) for the form.
  CO0001: {
    status: 409,
    en: 'A company with this name and type is already on the platform. If you work there, ask its administrator for an invitation code and join it as staff.',
    zh: '平台上已存在同名同类型的企业。如您在该企业任职，请向其管理员索取邀请码，以员工身份加入。',
  },
  CO0002: { status: 400, en: 'Please choose the serviced port.', zh: '请选择服务港口。' },
  CO0003: { status: 400, en: 'The fuel-supply GTC is required for fuel suppliers (and only for them).', zh: '燃油供应商须上传燃油供应通用条款（仅限燃油供应商）。' },
  CO0004: { status: 400, en: 'Please choose a country from the list.', zh: '请从列表中选择国家或地区。' },
  CO0005: { status: 400, en: 'Please choose a port from the list.', zh: '请从列表中选择港口。' },
  CO0006: { status: 400, en: 'A file is unknown or cannot be used here. Please upload it again.', zh: '文件不存在或无法使用，请重新上传。' },
  CO0007: { status: 400, en: 'The logo must be a JPEG or PNG image.', zh: '企业标志须为 JPEG 或 PNG 图片。' },
  CO0008: { status: 403, en: 'Only the company administrator can do this.', zh: '仅企业管理员可执行此操作。' },
  CO0009: { status: 404, en: 'Company not found.', zh: '企业不存在。' },
  CO0010: { status: 404, en: 'Unknown invitation code.', zh: '邀请码无效。' },
  CO0011: { status: 409, en: 'You are already a member of this company or have asked to join it.', zh: '您已是该企业成员或已申请加入。' },
  CO0012: { status: 409, en: 'The company information cannot be changed in its current state.', zh: '企业当前状态下不可修改信息。' },
  CO0013: { status: 409, en: 'This company does not accept new members.', zh: '该企业暂不接受新成员加入。' },
  CO0014: { status: 403, en: 'Only a company you can enter can be your main enterprise.', zh: '只能将可进入的企业设为主企业。' },
  // Approving staff. CO0016's `data` is { status } of the membership as it now stands.
  CO0015: { status: 404, en: 'There is no such request to join this company.', zh: '该企业没有这条加入申请。' },
  CO0016: { status: 409, en: 'This request to join has already been answered.', zh: '该加入申请已处理过。' },
  // Abuse resistance: guessing invitation codes, names that hide characters.
  CO0017: { status: 429, en: 'Too many invitation codes were tried. Please try again in an hour.', zh: '尝试邀请码次数过多，请一小时后再试。' },
  CO0018: {
    status: 400,
    en: 'Company names cannot contain invisible or text-direction characters.',
    zh: '企业名称不能包含不可见字符或文字方向控制字符。',
  },
  // Registry numbers and the registry check (issue 42). RG0001's `data` is { path, expected }, RG0002's { path }.
  RG0001: {
    status: 400,
    en: 'The last character of this unified social credit code does not fit the code. Please compare it with the licence.',
    zh: '统一社会信用代码的最后一位（校验码）与前 17 位不符，请对照营业执照核对。',
  },
  RG0002: {
    status: 400,
    en: 'A unified social credit code has 18 characters: digits and the capital letters A–Y without I, O, S, V and Z.',
    zh: '统一社会信用代码为 18 位，由数字和除 I、O、S、V、Z 以外的大写字母组成。',
  },
  RG0003: {
    status: 400,
    en: 'The consent text for the registry check has changed. Please read it again and agree.',
    zh: '企业登记信息核验的授权说明已更新，请重新阅读并同意。',
  },
  RG0004: { status: 400, en: 'This IMO company number is not valid: its last digit does not fit the first six.', zh: 'IMO 公司编号无效：最后一位校验码与前六位不符。' },
  RG0005: { status: 409, en: 'A registry check of this company is already running. Please wait for its result.', zh: '该企业的登记信息核验正在进行，请等待结果。' },
  RG0006: { status: 409, en: 'Only a company in mainland China can be checked against the registry.', zh: '仅中国大陆企业可进行登记信息核验。' },
  // RG0004's `data` is { path, expected }, RG0007's { path } (the company form, its fill and the operator's correction).
  RG0007: { status: 400, en: 'An IMO company number has 7 digits.', zh: 'IMO 公司编号为 7 位数字。' },
  // Administrators manage members and modules. Non-administrators get CO0008, non-members CO0009. When two
  // administrators change the same thing at once one wins; the other gets MB0003 or MB0004 (`data` says what stands).
  MB0001: { status: 409, en: 'A company always keeps an administrator. Make another member administrator first.', zh: '企业必须保留至少一名管理员，请先将其他成员设为管理员。' },
  MB0002: { status: 404, en: 'This person is not a member of the company.', zh: '此人不是该企业的成员。' },
  MB0003: { status: 409, en: "This member's role was just changed by another administrator. The list shows it as it stands.", zh: '该成员的角色刚刚已被其他管理员修改，列表已显示最新状态。' },
  MB0004: { status: 409, en: "This member's modules were just changed by another administrator. The list shows them as they stand.", zh: '该成员的模块刚刚已被其他管理员修改，列表已显示最新状态。' },
  MB0005: { status: 400, en: 'This module is not available to this company.', zh: '该企业不可使用此模块。' },
  MB0006: { status: 409, en: 'Modules are granted to approved staff members; administrators see every module.', zh: '模块只能授予已通过的员工；管理员可使用全部模块。' },
  MB0007: { status: 409, en: "Only an approved member's role can be changed. Please answer the request to join first.", zh: '只能修改已通过成员的角色，请先处理加入申请。' },
  // Own photo (setPhoto): one of the person's own uploaded JPEG or PNG images.
  MB0010: { status: 400, en: 'The photo must be a JPEG or PNG image you uploaded.', zh: '头像须为您上传的 JPEG 或 PNG 图片。' },
  // Files.
  FL0001: { status: 415, en: 'Unsupported file type.', zh: '不支持的文件类型。' },
  FL0002: { status: 413, en: 'File size exceeded (6 MB each).', zh: '文件大小超出限制（每个 6 MB）。' },
  FL0003: { status: 400, en: 'Too many files: at most 10 at a time.', zh: '文件过多：每次最多 10 个。' },
  FL0004: { status: 400, en: 'Please choose a file to upload.', zh: '请选择要上传的文件。' },
  // Storage caps: per upload request, an account's files not yet in a company form, and a company's files.
  FL0005: { status: 413, en: 'One upload may hold at most 24 MB. Please upload the files in several steps.', zh: '单次上传最多 24 MB，请分多次上传。' },
  FL0006: { status: 413, en: 'Your uploaded files not yet used in a company form exceed 40 MB. Please delete some first.', zh: '您已上传但尚未提交的文件超过 40 MB，请先删除部分文件。' },
  FL0007: { status: 413, en: "The company's files may total at most 40 MB.", zh: '企业的文件总计不能超过 40 MB。' },
  FL0010: { status: 404, en: 'File not found.', zh: '文件不存在。' },
  FL0011: { status: 409, en: 'This file belongs to a company and cannot be deleted here.', zh: '该文件已归属企业，无法在此删除。' },
  // Places.
  PL0001: { status: 400, en: 'Please enter 1 to 64 characters to search.', zh: '请输入 1 至 64 个字符进行搜索。' },
  PL0002: { status: 404, en: 'Unknown port.', zh: '港口不存在。' },
  // Anonymous writes (tracking events), capped per client network and globally.
  TR0001: { status: 429, en: 'Too many events. Please try again later.', zh: '事件提交过于频繁，请稍后再试。' },
  // Password reset and change. Unknown accounts on reset answer the CD codes of a known one, so reset
  // does not reveal who has an account.
  RS0001: { status: 400, en: 'The two passwords must be the same.', zh: '两次输入的密码必须一致。' },
  RS0002: { status: 400, en: 'The new password must differ from the current one.', zh: '新密码不能与当前密码相同。' },
  // Sign-in links: the e-mail pass link and the shared sign-in link.
  LK0001: { status: 400, en: 'This sign-in link is not valid. Please ask for a new one.', zh: '该登录链接无效，请重新获取。' },
  LK0002: { status: 400, en: 'This sign-in link has expired. Please ask for a new one.', zh: '该登录链接已过期，请重新获取。' },
  LK0003: { status: 409, en: 'This sign-in link has already been used. Please ask for a new one.', zh: '该登录链接已被使用，请重新获取。' },
  LK0010: { status: 429, en: 'Please wait a minute before asking for another link.', zh: '请稍候一分钟再获取新的链接。' },
  LK0011: { status: 429, en: 'Too many sign-in links were asked for. Please try again in an hour.', zh: '获取登录链接过于频繁，请一小时后再试。' },
  // Sessions and devices (user center, Security).
  SS0001: { status: 404, en: 'This session has already ended or is not yours.', zh: '该会话已结束或不属于您。' },
  // Internal: the sign-in history keeps no more failures this hour (never answered; the refusal itself is).
  SS0002: { status: 429, en: 'Too many failed sign-ins. Please try again later.', zh: '登录失败次数过多，请稍后再试。' },
  // Operators (the platform's own staff; functions/gateway/operators/service.ts).
  OP0001: { status: 401, en: 'Please sign in as an operator.', zh: '请以运营人员身份登录。' },
  OP0003: { status: 403, en: 'Your operator role does not allow this.', zh: '您的运营角色无权执行此操作。' },
  // Operator sign-in and enrolment (operators/sign-in.ts). An unknown login answers OP0004 like a wrong password.
  OP0004: { status: 401, en: 'The login or password is wrong.', zh: '账号或密码错误。' },
  OP0005: { status: 429, en: 'Too many failed attempts for this login. Please try again in an hour.', zh: '该账号尝试失败次数过多，请一小时后再试。' },
  OP0006: { status: 429, en: 'Too many failed attempts from your network. Please try again in an hour.', zh: '您所在网络尝试失败次数过多，请一小时后再试。' },
  OP0007: { status: 400, en: 'This sign-in has expired. Please enter your login and password again.', zh: '本次登录已过期，请重新输入账号和密码。' },
  OP0008: { status: 400, en: 'The code is wrong. Check the time on your phone and enter the current code.', zh: '验证码错误，请核对手机时间后输入当前验证码。' },
  OP0009: { status: 400, en: 'This code was already used. Please wait for the next code.', zh: '该验证码已使用，请等待下一个验证码。' },
  OP0010: { status: 400, en: 'This enrolment link has expired or was already used. Ask an administrator for a new one.', zh: '该注册链接已过期或已使用，请联系管理员重新获取。' },
  // People support (operators with the support role). Each action changes something once: a repeat, or the
  // loser of parallel attempts, answers the code that says the state is already what was asked.
  // A person's rights over their data (functions/gateway/data-rights/; issue 28).
  DR0001: {
    status: 429,
    en: 'You can ask for one copy of your data a day. Please try again after the time shown.',
    zh: '每天只能申请一次数据副本，请在显示的时间之后再试。',
  },
  DR0002: { status: 404, en: 'This copy is not available. It may have expired; you can ask for a new one.', zh: '该数据副本不可用，可能已过期，您可以重新申请。' },
  DR0003: {
    status: 409,
    en: 'You are the last administrator of a company. Hand the company to another member, or ask support to close the company, before you close your account.',
    zh: '您是企业的最后一位管理员。注销账号前，请先将企业移交给其他成员，或联系客服注销企业。',
  },
  DR0004: { status: 409, en: 'Your account is not closing.', zh: '您的账号未在注销中。' },
  DR0005: { status: 409, en: 'This account is already under a legal hold.', zh: '该账号已处于法律保留状态。' },
  DR0006: { status: 409, en: 'This account is not under a legal hold.', zh: '该账号未处于法律保留状态。' },
  DR0007: { status: 409, en: 'This account has been closed and its data erased.', zh: '该账号已注销，数据已删除。' },
  DR0008: { status: 409, en: 'Another account already uses this address. Please use another one.', zh: '该地址已被其他账号使用，请换一个。' },
  DR0009: { status: 400, en: 'This is already the address of your account.', zh: '这已经是您账号的地址。' },
  DR0010: {
    status: 400,
    en: 'This link has been used or has expired (it works once, for 72 hours).',
    zh: '该链接已使用或已过期（链接只能使用一次，72 小时内有效）。',
  },
  DR0011: {
    status: 409,
    en: 'This address now belongs to another account, so it cannot be put back. Please contact customer support.',
    zh: '该地址现已属于其他账号，无法恢复，请联系客服。',
  },
  PS0001: { status: 404, en: 'No such person.', zh: '未找到该用户。' },
  PS0002: { status: 409, en: 'This person has no failed password sign-ins to clear.', zh: '该用户没有需要解除的密码登录限制。' },
  PS0003: { status: 409, en: 'This account is already blocked.', zh: '该账号已被停用。' },
  PS0004: { status: 409, en: 'This account is not blocked.', zh: '该账号未被停用。' },
  PS0005: { status: 409, en: 'This person has no session to end.', zh: '该用户没有可结束的会话。' },
  PS0006: { status: 409, en: 'This person must already change their password at the next sign-in.', zh: '该用户下次登录时已需修改密码。' },
  PS0007: { status: 409, en: 'Two-step verification is not on for this person.', zh: '该用户未开启两步验证。' },
  PS0008: {
    status: 409,
    en: 'The administrator role could not move: the new administrator must be an active staff member and the old one still the administrator.',
    zh: '无法转移管理员：新管理员须为企业的在职员工，原管理员须仍为管理员。',
  },
  PS0009: { status: 400, en: 'Please give the reason for this action (4 to 500 characters).', zh: '请填写操作原因（4 至 500 个字符）。' },
  PS0010: { status: 400, en: 'Please enter a phone number, e-mail address, user ID or name to search for.', zh: '请输入要查找的手机号、邮箱、用户 ID 或姓名。' },
  // Every sign-in of a blocked account (and every call of its sessions, which end with the block).
  PS0100: {
    status: 403,
    en: 'This account has been blocked. Please contact customer support.',
    zh: '该账号已被停用，请联系客服。',
  },
  // Company review. RV0001's and RV0002's `data` is { status } of the company as it now stands.
  RV0001: {
    status: 409,
    en: 'Another operator decided on this company first; its status has changed. Reload to see it.',
    zh: '其他运营人员已先处理该企业，企业状态已变更，请刷新后查看。',
  },
  RV0002: { status: 409, en: 'This decision is not possible in the company\'s current status.', zh: '企业当前状态下不能执行该操作。' },
  RV0003: { status: 400, en: 'Please choose a reason from the list for this decision.', zh: '请为该操作从列表中选择原因。' },
  RV0004: { status: 404, en: 'Company not found.', zh: '企业不存在。' },
  RV0005: { status: 400, en: 'Please describe the reason in your own words.', zh: '请填写具体原因。' },
  RV0006: {
    status: 409,
    en: 'The company was changed after you opened it; nothing was saved. Reload to see it as it is now.',
    zh: '您打开后该企业信息已被修改，本次未保存。请刷新后查看最新信息。',
  },
  // Members of a company the platform blocked or let expire are refused at sign-in and when entering it.
  RV0010: {
    status: 403,
    en: 'Your company has been blocked by the platform, so you cannot enter it. Your company administrator has been told why.',
    zh: '您的企业已被平台冻结，暂时无法进入。平台已将原因告知企业管理员。',
  },
  RV0011: {
    status: 403,
    en: "Your company's verification has expired, so you cannot enter it. Your company administrator has been told what to do.",
    zh: '您的企业认证已过期，暂时无法进入。平台已通知企业管理员处理。',
  },
  // Passkeys (WebAuthn). Unknown, expired and used challenges answer the same PK0002.
  PK0001: { status: 503, en: 'Passkeys are not available on this site.', zh: '本站暂不支持通行密钥。' },
  PK0002: { status: 400, en: 'This passkey request has expired or was already used. Please try again.', zh: '通行密钥请求已过期或已使用，请重试。' },
  PK0003: { status: 400, en: 'The passkey could not be verified. Please try again.', zh: '通行密钥验证失败，请重试。' },
  PK0004: { status: 400, en: 'This passkey is not registered here. Please sign in another way.', zh: '该通行密钥未在本站注册，请使用其他方式登录。' },
  // The signature counter did not rise: the credential may have been copied.
  PK0005: { status: 403, en: 'This passkey was refused because it may have been copied. Please sign in another way and remove it.', zh: '该通行密钥可能已被复制，已拒绝使用。请使用其他方式登录并将其删除。' },
  PK0006: { status: 409, en: 'This passkey is already registered.', zh: '该通行密钥已注册。' },
  PK0007: { status: 404, en: 'Passkey not found.', zh: '通行密钥不存在。' },
  PK0010: { status: 429, en: 'Too many passkey sign-ins from your network. Please try again later.', zh: '您所在网络的通行密钥登录过于频繁，请稍后再试。' },
  PK0011: { status: 429, en: 'Too many passkey registrations were started. Please try again in an hour.', zh: '添加通行密钥过于频繁，请一小时后再试。' },
  PK0012: { status: 400, en: 'You can have at most 10 passkeys. Please remove one first.', zh: '最多可添加 10 个通行密钥，请先删除一个。' },
  // A passkey as the second step of a sign-in.
  PK0013: { status: 400, en: 'This account has no passkey yet. Please use your authenticator app or a recovery code.', zh: '该账号尚未添加通行密钥，请使用身份验证器应用或恢复码。' },
  PK0014: { status: 400, en: 'This passkey belongs to another account. Please use a passkey of the account you are signing in to.', zh: '该通行密钥属于其他账号，请使用您正在登录的账号的通行密钥。' },
  PK0015: { status: 429, en: 'Too many passkey requests for this account. Please try again in an hour or use your authenticator app.', zh: '该账号的通行密钥请求过于频繁，请一小时后再试或使用身份验证器应用。' },
  // Two-step verification (authenticator app and recovery codes). `data` of MF0002 on the second step is { triesLeft }.
  MF0001: { status: 401, en: 'The second step has expired or was already used. Please sign in again.', zh: '二次验证已过期或已使用，请重新登录。' },
  MF0002: { status: 400, en: 'Wrong code. Please check your authenticator app and try again.', zh: '验证码错误，请查看身份验证器应用后重试。' },
  MF0003: { status: 400, en: 'This code was already used. Please wait for the next code.', zh: '该验证码已使用，请等待下一个验证码。' },
  MF0004: { status: 429, en: 'Too many wrong codes for this sign-in. Please sign in again.', zh: '本次登录的验证码错误次数过多，请重新登录。' },
  MF0005: { status: 429, en: 'Too many wrong codes for this account. Please try again in an hour.', zh: '该账号的验证码错误次数过多，请一小时后再试。' },
  MF0006: { status: 429, en: 'Too many wrong codes from your network. Please try again in an hour.', zh: '您所在网络的验证码错误次数过多，请一小时后再试。' },
  MF0010: { status: 409, en: 'Two-step verification is already on.', zh: '两步验证已开启。' },
  MF0011: { status: 400, en: 'Please start setting up two-step verification again.', zh: '请重新开始设置两步验证。' },
  MF0012: { status: 400, en: 'Two-step verification is not on.', zh: '两步验证未开启。' },
  MF0020: { status: 403, en: 'Only an administrator of this company can change this setting.', zh: '只有该企业的管理员可以修改此设置。' },
  MF0021: { status: 403, en: 'This company requires two-step verification. Please turn it on in your user center first.', zh: '该企业要求开启两步验证，请先在个人中心开启。' },
  MF0022: { status: 400, en: 'Please turn on two-step verification for yourself before requiring it of members.', zh: '请先为自己开启两步验证，再要求成员开启。' },
  // The new-device challenge (issue 44): a code to the account's e-mail or phone. `data` of ND0001 is { triesLeft }.
  ND0001: { status: 400, en: 'Wrong code. Please check the code we sent you and try again.', zh: '验证码错误，请查看我们发送给您的验证码后重试。' },
  ND0003: { status: 404, en: 'This device is not on your list any more.', zh: '该设备已不在您的列表中。' },
  // A company forbids trusted devices only while it requires two-step of its members (companies.forbid_trusted_devices).
  ND0004: { status: 400, en: 'Require two-step verification of members first: only then can trusted devices be turned off.', zh: '请先要求成员开启两步验证，之后才能禁止信任设备。' },
  // Support "view as" (issue 44, functions/gateway/support/).
  SV0001: {
    status: 403,
    en: 'Support cannot do this while viewing as you: security settings, secrets and the operators’ console stay closed.',
    zh: '客服代为查看期间不能进行此操作：安全设置、密钥和运营后台均不可用。',
  },
  SV0002: {
    status: 403,
    en: 'Support is viewing as you read-only. Changes need the permission of an operator administrator for this session.',
    zh: '客服正以只读方式代为查看。如需修改，须由运营管理员为本次会话授权。',
  },
  SV0003: {
    status: 400,
    en: 'This support code is wrong, has expired or was used already. Ask the person for a new one.',
    zh: '支持码错误、已过期或已被使用，请让对方重新获取。',
  },
  SV0004: { status: 403, en: 'Support cannot view as this account.', zh: '无法代为查看此账号。' },
  SV0005: { status: 403, en: 'Confirm it’s you with a code of your authenticator app.', zh: '请输入身份验证器应用中的验证码，确认是您本人。' },
  SV0006: { status: 404, en: 'This approval has expired, was used already, or is not yours.', zh: '该审批已过期、已被使用或不属于您。' },
  SV0007: {
    status: 409,
    en: 'A second operator must decide this: you cannot approve your own request or allow changes in your own session.',
    zh: '此操作须由另一位运营人员决定：不能审批自己的申请，也不能为自己的会话授权修改。',
  },
  SV0008: { status: 404, en: 'This support session has ended.', zh: '本次客服代为查看已结束。' },
  ND0002: { status: 403, en: 'This sign-in from a new device needs a code, but your account has no e-mail or phone to send it to. Please sign in with a passkey or contact support.', zh: '在新设备上登录需要验证码，但您的账号没有可接收验证码的邮箱或手机，请使用通行密钥登录或联系客服。' },
  // Proving it's you again (functions/gateway/identity/proof.ts): a sensitive change without a fresh proof
  // answers SU0001, and the user center asks the person to confirm it's them, then repeats the change.
  SU0001: { status: 403, en: "For your security, please confirm it's you to continue.", zh: '为了您的账号安全，请先验证身份再继续。' },
  SU0002: { status: 400, en: 'This confirmation has expired or was already used. Please start again.', zh: '本次身份验证已过期或已使用，请重新开始。' },
  SU0003: { status: 429, en: 'Too many wrong codes for this confirmation. Please start again.', zh: '本次身份验证的验证码错误次数过多，请重新开始。' },
  SU0004: { status: 400, en: 'This way of confirming is not available for your account. Please choose another.', zh: '您的账号无法使用此验证方式，请选择其他方式。' },
  // Wrong passwords given to "confirm it's you", per person across networks and per network, per hour.
  SU0005: { status: 429, en: 'Too many wrong passwords. Please try again in an hour, or confirm with a code or a passkey.', zh: '密码错误次数过多，请一小时后再试，或使用验证码或通行密钥验证。' },
  SU0006: { status: 429, en: 'Too many wrong passwords from your network. Please try again in an hour.', zh: '当前网络的密码错误次数过多，请一小时后再试。' },
  // Signing in to another app through the portal (OpenID Connect, functions/gateway/oidc/).
  OI0001: { status: 404, en: 'This sign-in request has expired or was already used. Please go back to the app and start again.', zh: '此登录请求已过期或已使用，请返回应用重新发起。' },
  OI0002: { status: 403, en: "This app asks you to confirm it's you first.", zh: '该应用要求您先验证身份。' },
  OI0003: { status: 403, en: 'This app requires two-step verification. Please set it up in the user center first.', zh: '该应用要求开启两步验证，请先在个人中心设置。' },
  OI0005: { status: 429, en: 'Too many token requests. Please wait a minute.', zh: '令牌请求过于频繁，请一分钟后再试。' },
  OI0004: { status: 404, en: 'This app is not connected to your account.', zh: '该应用未关联您的账号。' },
  OI0900: { status: 404, en: 'This sign-out request has expired, was already answered, or belongs to another browser. Nothing was changed.', zh: '此退出请求已过期、已处理或属于其他浏览器，未做任何更改。' },
  // The operators' client console and company API clients (oidc/console.ts, oidc/company-clients.ts).
  OI0010: { status: 404, en: 'There is no such client.', zh: '没有该客户端。' },
  OI0011: { status: 400, en: 'Check the client: a name of at most 100 characters, and exact https addresses (http only for 127.0.0.1 or localhost), with no wildcard, fragment or user name.', zh: '请检查客户端：名称不超过 100 个字符，地址须为精确的 https 地址（仅 127.0.0.1 或 localhost 可用 http），不得含通配符、片段或用户名。' },
  OI0012: { status: 400, en: 'A public client needs at least one redirect URI.', zh: '公开客户端至少需要一个回调地址。' },
  OI0013: { status: 400, en: 'Check the API client: a name of at most 100 characters, at least one permission and an end date.', zh: '请检查 API 客户端：名称不超过 100 个字符，至少选择一项权限，并填写到期日期。' },
  OI0014: { status: 400, en: 'Choose an end date from tomorrow to one year from today.', zh: '请选择从明天起一年以内的到期日期。' },
  OI0015: { status: 400, en: 'Your company cannot give this permission to an API client.', zh: '贵公司不能为 API 客户端授予该权限。' },
  OI0016: { status: 409, en: 'This API client was already created; its secret was shown once. Look for it in the list.', zh: '该 API 客户端已创建，密钥仅显示一次，请在列表中查看。' },
  OI0017: { status: 409, en: 'Your company has as many active API clients as allowed (20). Revoke one first.', zh: '贵公司的有效 API 客户端已达上限（20 个），请先撤销一个。' },
  OI0018: { status: 404, en: 'There is no such API client in your company, or it was already revoked.', zh: '贵公司没有该 API 客户端，或已被撤销。' },
  OI0019: { status: 409, en: "This client belongs to a company; its administrators manage it.", zh: '该客户端属于某公司，由该公司管理员管理。' },
  // Issue 43: a company's own identity provider (functions/gateway/company-sso/).
  ID0431: { status: 409, en: 'This domain already belongs to another company.', zh: '该域名已属于其他公司。' },
  ID0432: { status: 409, en: 'The TXT record was not found yet. Publish it at your DNS provider, wait a few minutes and check again.', zh: '尚未找到该 TXT 记录。请在您的域名服务商处添加，几分钟后再检查。' },
  ID0433: { status: 502, en: 'DNS could not be asked right now. Please check again in a few minutes.', zh: '暂时无法查询 DNS，请几分钟后再检查。' },
  ID0434: { status: 404, en: 'Your company has not added this domain.', zh: '贵公司尚未添加该域名。' },
  ID0435: { status: 400, en: 'Enter a domain such as example.com.', zh: '请输入域名，例如 example.com。' },
  // Issue 43, second half: sign-in through a company's own OpenID provider.
  ID0610: { status: 400, en: 'Enter the issuer (an https address), the client ID and the client secret your provider gave you.', zh: '请填写身份提供方给您的颁发者地址（https）、客户端 ID 和客户端密钥。' },
  ID0611: { status: 400, en: 'This issuer address cannot be used: it must be a public https address.', zh: '该颁发者地址不可用：必须是公网 https 地址。' },
  ID0612: { status: 502, en: 'The provider’s OpenID configuration could not be read at this issuer. Check the address and try again.', zh: '无法从该颁发者读取身份提供方的 OpenID 配置。请检查地址后重试。' },
  ID0613: { status: 404, en: 'Your company has no sign-in provider connected.', zh: '贵公司尚未连接登录身份提供方。' },
  ID0614: { status: 400, en: 'This sign-in has expired or was started in another browser. Please start again.', zh: '此次登录已过期或在其他浏览器中发起，请重新开始。' },
  ID0615: { status: 401, en: 'Your company’s sign-in could not be verified. Please start again.', zh: '无法验证贵公司的登录结果，请重新开始。' },
  ID0616: { status: 403, en: 'Your company’s provider did not confirm an e-mail address on a domain your company has proved.', zh: '贵公司的身份提供方未确认属于贵公司已验证域名的电子邮箱。' },
  ID0617: { status: 403, en: 'Your company signs you in through its own sign-in. Use “Continue with your company”.', zh: '贵公司要求通过公司统一登录。请使用“通过公司登录”。' },
  ID0618: { status: 400, en: 'This step has expired. Please sign in with your company again.', zh: '此步骤已过期，请重新通过公司登录。' },
  ID0619: { status: 502, en: 'Your company’s sign-in provider did not answer. Please try again in a moment.', zh: '贵公司的登录身份提供方没有响应，请稍后重试。' },
  ID0620: { status: 429, en: 'Too many sign-ins were started from your network. Please wait a while.', zh: '您的网络发起的登录过多，请稍后再试。' },
  ID0621: { status: 400, en: 'A company can connect at most 10 sign-in providers. Edit or turn off one it has.', zh: '每家企业最多可连接 10 个登录身份提供方。请编辑或停用已有的提供方。' },
  // Issue 43: PKCE per client.
  OI0430: { status: 400, en: 'PKCE stays required for a public client. For a confidential client, say why it may be turned off.', zh: '公开客户端必须使用 PKCE。关闭机密客户端的 PKCE 时，请说明原因。' },
  // Sign in with WeChat and WeCom (functions/gateway/wechat/).
  WX0001: { status: 404, en: 'This way of signing in is not available here.', zh: '此处暂不支持该登录方式。' },
  WX0002: {
    status: 400,
    en: 'This WeChat sign-in has expired or was started in another browser. Please start again.',
    zh: '本次微信登录已过期或不是在此浏览器中发起的，请重新开始。',
  },
  WX0003: { status: 400, en: 'This authorization was already used. Please scan again.', zh: '该授权已被使用，请重新扫码。' },
  WX0004: { status: 400, en: 'WeChat did not accept this authorization. Please scan again.', zh: '微信未接受本次授权，请重新扫码。' },
  WX0005: {
    status: 504,
    en: 'WeChat did not answer in time. Please try again, or sign in with your phone number.',
    zh: '微信响应超时，请重试，或使用手机号登录。',
  },
  WX0006: {
    status: 502,
    en: 'WeChat cannot be reached right now. Please try again later, or sign in with your phone number.',
    zh: '暂时无法连接微信，请稍后重试，或使用手机号登录。',
  },
  WX0007: { status: 409, en: 'This WeChat is already tied to another account.', zh: '该微信已绑定其他账号。' },
  WX0008: {
    status: 409,
    en: 'This account already has a WeChat of its own tied to it. Unbind that one first in the user center.',
    zh: '该账号已绑定其他微信，请先在个人中心解绑。',
  },
  WX0009: { status: 400, en: 'Your WeChat confirmation has expired. Please scan again.', zh: '微信确认已过期，请重新扫码。' },
  WX0010: {
    status: 409,
    en: 'Keep another way to sign in (a phone number, an e-mail address or a password) before unbinding.',
    zh: '解绑前请保留其他登录方式（手机号、邮箱或密码）。',
  },
  // Vessels and grants between companies (issue 41, functions/gateway/vessels/ and grants/; acting: authority/).
  DG0001: { status: 400, en: 'This is not an IMO number: it has seven digits, the last one a check digit.', zh: '这不是 IMO 编号：IMO 编号为七位数字，最后一位是校验位。' },
  DG0002: { status: 400, en: 'The last digit of this IMO number does not match the first six. Please check the number.', zh: '该 IMO 编号的最后一位与前六位不符，请核对编号。' },
  DG0003: { status: 400, en: 'Give the vessel a name.', zh: '请填写船名。' },
  DG0004: { status: 404, en: 'This vessel is not on your company’s list.', zh: '贵公司的船舶列表中没有这艘船。' },
  DG0005: { status: 400, en: 'Your company does not own, manage or charter every vessel named for these dates.', zh: '在所选日期内，贵公司并不拥有、管理或租用所列的全部船舶。' },
  DG0006: { status: 400, en: 'A port is not on the port list. Choose ports by their UN/LOCODE.', zh: '有港口不在港口列表中，请按 UN/LOCODE 选择港口。' },
  DG0007: { status: 400, en: 'A module is not one the other company can use.', zh: '有模块不是对方公司可使用的模块。' },
  DG0008: { status: 400, en: 'The dates are not right: the end must come after the start, within a year.', zh: '日期有误：结束日期须晚于开始日期，且不超过一年。' },
  DG0009: { status: 404, en: 'No verified company by that name.', zh: '没有该名称的已认证公司。' },
  DG0010: { status: 404, en: 'This grant does not exist or is not your company’s.', zh: '该授权不存在或不属于贵公司。' },
  DG0011: { status: 409, en: 'This grant was already answered or ended. The list shows it as it stands.', zh: '该授权已被处理或已结束，列表显示其当前状态。' },
  DG0012: { status: 403, en: 'The other company answers this request, not yours.', zh: '该请求须由对方公司处理。' },
  DG0013: { status: 400, en: 'Name at least one vessel or port.', zh: '请至少填写一艘船舶或一个港口。' },
  DG0014: { status: 403, en: 'You no longer act for that company: the grant ended or changed. Choose again.', zh: '您已不能代表该公司操作：授权已结束或变更，请重新选择。' },
  DG0015: { status: 403, en: 'The platform has suspended this company’s grants.', zh: '平台已暂停该公司的授权。' },
  DG0016: { status: 400, en: 'The charter needs its start and end dates.', zh: '租船须填写起止日期。' },
  WX0011: { status: 404, en: 'Nothing is tied to this account.', zh: '该账号未绑定。' },
  WX0012: { status: 403, en: 'You are not a member of this company in WeCom.', zh: '您不是该企业微信中的成员。' },
  WX0013: { status: 429, en: 'Too many WeChat sign-ins from your network. Please try again later.', zh: '您所在网络的微信登录过于频繁，请稍后再试。' },
  WH0001: {
    status: 400,
    en: 'Give an https:// address on the internet: a private, local or loopback address cannot receive events.',
    zh: '请填写互联网上的 https:// 地址：私有、本地或回环地址不能接收事件。',
  },
  WH0002: { status: 400, en: 'Choose at least one event type this endpoint can receive.', zh: '请至少选择一种该端点可以接收的事件类型。' },
  WH0003: { status: 409, en: 'There are as many endpoints as allowed (10). Remove one first.', zh: '端点数量已达上限（10 个），请先删除一个。' },
  WH0004: { status: 404, en: 'There is no such endpoint, or it was removed.', zh: '没有该端点，或已被删除。' },
  WH0005: { status: 409, en: 'This delivery cannot be sent again: it was delivered, or its endpoint is stopped or removed.', zh: '该投递无法重新发送：已送达，或其端点已停用或删除。' },
  WH0006: { status: 400, en: 'Choose a period of at most 366 days, its start before its end.', zh: '请选择不超过 366 天的时间段，开始早于结束。' },
  WH0007: { status: 404, en: 'This export is gone: links last 24 hours. Export the period again.', zh: '该导出已失效：链接有效期为 24 小时，请重新导出。' },
  WH0008: { status: 413, en: 'This period has more than 50,000 entries. Choose a shorter one.', zh: '该时间段的记录超过 50,000 条，请选择更短的时间段。' },
} as const satisfies Record<string, { status: number; en: string; zh: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The catalogue's names (error-names.ts), one per code: `ERR.TWO_STEP_OFF`. */
export const ERR = errorNames satisfies Record<string, ErrorCode>;

// Every catalogue code has exactly one name: none is missing, and none is named twice.
type ErrName = keyof typeof ERR;
type NamesOf<C extends ErrorCode> = { [N in ErrName]: (typeof ERR)[N] extends C ? N : never }[ErrName];
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
type Unnamed = { [C in ErrorCode]: [NamesOf<C>] extends [never] ? C : never }[ErrorCode];
type NamedTwice = { [C in ErrorCode]: true extends IsUnion<NamesOf<C>> ? C : never }[ErrorCode];
const everyCodeNamedOnce: [Unnamed, NamedTwice] extends [never, never] ? true : [Unnamed, NamedTwice] = true;
void everyCodeNamedOnce;

export function errorMessage(code: ErrorCode, lang: Lang): string {
  return errorCatalogue[code][lang];
}
