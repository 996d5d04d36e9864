import { onboardingApi } from '../api/onboarding';
import { problemOf, type Problem } from '../i18n/problem';
import { track } from '../lib/tracking';
import { stripSpacesAndCommas } from '../schemas/auth-rules';
import { hiddenCharacterIn } from '../schemas/display-text';
import { invitationCodeSchema, isoDateSchema } from '../schemas/onboarding';
import { submitChecked } from './form';
import type { JoinContext, JoinField } from './join';
import { collapse, currentLoginType, emailProblem, phoneProblem } from './onboarding';

/**
 * The staff form's look-up, checks and submit. stores/join.ts loads this on the form's first focus or use and
 * passes its state (it is not imported from here, so the form's store stays in the island's own chunk).
 */

/** On blur, or when the code is complete: selectCompanyNameByCompanyId. */
export async function lookUpCompany(ctx: JoinContext) {
  const code = ctx.form.$values.get().invitationCode;
  if (!code) return;
  const parsed = invitationCodeSchema.safeParse(code);
  if (!parsed.success) return void ctx.form.fail('invitationCode', { key: 'onboarding.errors.invitationCodeInvalid' });
  if (ctx.form.$values.get().lookup === 'found' || ctx.form.$values.get().lookup === 'looking') return;
  const ticket = ++ctx.lookupTicket;
  ctx.form.$values.setKey('lookup', 'looking');
  const answer = await onboardingApi.companyNameByInvitation(parsed.data);
  if (ticket !== ctx.lookupTicket || ctx.form.$values.get().invitationCode !== code) return;
  if (answer.ok) {
    const name = ctx.lang === 'zh' && answer.data.companyNameCn ? answer.data.companyNameCn : answer.data.companyNameEn;
    ctx.form.$values.set({ ...ctx.form.$values.get(), companyName: name, lookup: 'found' });
  } else {
    ctx.form.$values.set({ ...ctx.form.$values.get(), companyName: '', lookup: 'unknown' });
    ctx.form.fail('invitationCode', problemOf(answer));
  }
}

function validateJoin(ctx: JoinContext): boolean {
  const s = ctx.form.$values.get();
  const errors: Partial<Record<JoinField, Problem>> = {};
  if (!s.invitationCode) errors.invitationCode = { key: 'onboarding.errors.invitationCodeRequired' };
  else if (!invitationCodeSchema.safeParse(s.invitationCode).success) errors.invitationCode = { key: 'onboarding.errors.invitationCodeInvalid' };
  else if (s.lookup === 'unknown') errors.invitationCode = ctx.form.$errors.get().invitationCode ?? { key: 'onboarding.errors.invitationCodeInvalid' };
  if (!collapse(s.nickName)) errors.nickName = { key: 'onboarding.errors.realNameRequired' };
  else if (hiddenCharacterIn(collapse(s.nickName))) errors.nickName = { key: 'errors.hiddenCharacters' };
  const email = emailProblem(s.personalEmail);
  if (email) errors.personalEmail = email;
  const phone = phoneProblem(s.areaId, s.contactTel);
  if (phone) errors.contactTel = phone;
  if (s.hireTime && !isoDateSchema.safeParse(s.hireTime).success) errors.hireTime = { key: 'onboarding.errors.hireDateInvalid' };
  return ctx.form.check(errors);
}

export function submitJoin(ctx: JoinContext) {
  return submitChecked(ctx.form, () => validateJoin(ctx), { key: 'onboarding.errorSummary' }, async () => {
    const s = ctx.form.$values.get();
    const result = await onboardingApi.join({
      companyId: s.invitationCode,
      companyNameEn: s.companyName || undefined,
      nickName: collapse(s.nickName),
      personalEmail: stripSpacesAndCommas(s.personalEmail),
      contactTel: stripSpacesAndCommas(s.contactTel),
      phoneCode: s.phoneCode,
      hireTime: s.hireTime || undefined,
    });
    if (!result.ok) return ctx.form.failure(result);
    track('join_requested');
    // The same shape as login case 5 (staff awaiting approval): no ifJumpToSaas.
    const query = new URLSearchParams({ userType: '2', loginType: String(await currentLoginType(ctx.env.search)) });
    ctx.form.leaving();
    ctx.env.navigate(`/completion_of_application?${query}`);
  });
}
