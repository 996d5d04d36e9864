import type { Messages } from '../en';
import { browserNotice, common, errors, header, meta, pages, validation } from './common';
import { linkSignIn, partner, reset, signIn } from './sign-in';
import { legal } from './legal';
import { completion, onboarding, upload } from './onboarding';
import { companyTypes, statuses } from './company';
import { account, accountActivity, actionNames, members, userCenter } from './account';
import { changePassword, passkeys, security, twoStep } from './security';
import { stepUp } from './step-up';
import { connect } from './connect';
import { apiClients } from './api-clients';
import { grants } from './grants';
import { webhooks } from './webhooks';
import { dataRights } from './data-rights';
import { wechat } from './wechat';
import { companySso } from './company-sso';

/** 中文文案：与 en 同一套键。 */
export const zh: Messages = {
  meta,
  header,
  browserNotice,
  common,
  pages,
  validation,
  errors,
  signIn,
  linkSignIn,
  partner,
  reset,
  legal,
  onboarding,
  upload,
  completion,
  companyTypes,
  statuses,
  account,
  userCenter,
  members,
  accountActivity,
  actionNames,
  security,
  twoStep,
  changePassword,
  passkeys,
  stepUp,
  connect,
  apiClients,
  grants,
  webhooks,
  dataRights,
  wechat,
  companySso,
};

