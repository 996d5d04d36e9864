import type { Widen } from '../widen';
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

/**
 * English words of the people's pages, one file per area. The shape of this object is the key set every locale
 * must provide (see Messages). The operator console's words (../ops.ts) and the Worker's (../worker.ts) are
 * composed apart, so a people page never loads them.
 */
export const en = {
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

/** One key set for every locale: a missing or extra key is a type error. */
export type Messages = Widen<typeof en>;
