import { task } from 'nanostores';
import { onboardingApi } from '../api/onboarding';
import { problemOf, type Problem } from '../i18n/problem';
import { stripSpacesAndCommas } from '../schemas/auth';
import { hiddenCharacterIn } from '../schemas/display-text';
import { DEFAULT_AREA_CODE_ID, type PhoneCodeItem } from '../schemas/dictionaries';
import { INVITATION_LENGTH, invitationCodeSchema, isoDateSchema } from '../schemas/onboarding';
import { realBrowser, type BrowserEnv } from './browser';
import { createForm, submitChecked } from './form';
import { collapse, currentLoginType, emailProblem, phoneProblem } from './onboarding';
import { track } from '../lib/tracking';

/** The staff form: /join. The company name fills itself from the invitation code. */

export type JoinField = 'invitationCode' | 'nickName' | 'personalEmail' | 'contactTel' | 'hireTime';

const emptyJoin = {
  invitationCode: '',
  /** The company the code belongs to, read-only. */
  companyName: '',
  lookup: 'idle' as 'idle' | 'looking' | 'found' | 'unknown',
  nickName: '',
  personalEmail: '',
  areaId: DEFAULT_AREA_CODE_ID,
  phoneCode: '+86',
  contactTel: '',
  hireTime: '',
};
export type JoinState = typeof emptyJoin;

const form = createForm<JoinState, JoinField>(emptyJoin, {
  // A nick name the gateway refuses (GW0422, the display-text rule) is said at its field.
  paths: { nickName: 'nickName' },
  codes: { CO0010: 'invitationCode', CO0013: 'invitationCode', PH0001: 'contactTel', PH0002: 'personalEmail' },
  alsoOnForm: true,
  fieldOfValue: { areaId: 'contactTel', phoneCode: 'contactTel' },
  keep: { name: 'join', values: ['invitationCode', 'nickName', 'personalEmail', 'areaId', 'phoneCode', 'contactTel', 'hireTime'] },
});
export const $join = form.$values;
export const $joinErrors = form.$errors;
let lang: 'zh' | 'en' = 'en';
let env: BrowserEnv;
let lookupTicket = 0;

export function initJoin(language: 'zh' | 'en', browser: BrowserEnv = realBrowser()) {
  lang = language;
  env = browser;
  form.reset();
  const kept = form.restoreKept();
  const code = kept?.invitationCode || new URLSearchParams(env.search).get('code');
  if (code) {
    // The company name is looked up again for the code.
    $join.setKey('invitationCode', '');
    setInvitationCode(code);
  }
  if (!kept) void prefillFromAccount();
}

/**
 * What the person told us once is not asked again (issue 33): the phone they signed in with and their profile's
 * name fill the form's empty fields. Anything already typed stays.
 */
async function prefillFromAccount() {
  const me = await onboardingApi.fetchMe();
  if (!me.ok) return;
  const s = $join.get();
  const next = { ...s };
  if (!s.nickName && me.data.realName.trim()) next.nickName = me.data.realName.trim();
  if (!s.contactTel && me.data.registerMobile) {
    next.contactTel = me.data.registerMobile;
    if (me.data.userPhoneCode) next.phoneCode = me.data.userPhoneCode;
    if (me.data.userPhoneCodeValue) next.areaId = me.data.userPhoneCodeValue;
  }
  $join.set(next);
}

type JoinEditable = Exclude<keyof JoinState, 'companyName' | 'lookup' | 'invitationCode'>;
export const setJoinField = <K extends JoinEditable>(key: K, value: JoinState[K]) => form.set(key, value);
export function setJoinArea(item: PhoneCodeItem) {
  form.set('areaId', item.id);
  form.set('phoneCode', item.phoneCode);
}

/** Typing the code: once it is complete the company name fills itself. */
export function setInvitationCode(raw: string) {
  const code = raw.replace(/[\s-]/g, '').toUpperCase().slice(0, INVITATION_LENGTH);
  const changed = code !== $join.get().invitationCode;
  $join.setKey('invitationCode', code);
  if (!changed) return;
  $joinErrors.setKey('invitationCode', undefined);
  $join.set({ ...$join.get(), companyName: '', lookup: 'idle' });
  if (code.length === INVITATION_LENGTH) void task(lookUpCompany);
}

/** On blur, or when the code is complete: selectCompanyNameByCompanyId. */
export async function lookUpCompany() {
  const code = $join.get().invitationCode;
  if (!code) return;
  const parsed = invitationCodeSchema.safeParse(code);
  if (!parsed.success) return void form.fail('invitationCode', { key: 'onboarding.errors.invitationCodeInvalid' });
  if ($join.get().lookup === 'found' || $join.get().lookup === 'looking') return;
  const ticket = ++lookupTicket;
  $join.setKey('lookup', 'looking');
  const answer = await onboardingApi.companyNameByInvitation(parsed.data);
  if (ticket !== lookupTicket || $join.get().invitationCode !== code) return;
  if (answer.ok) {
    const name = lang === 'zh' && answer.data.companyNameCn ? answer.data.companyNameCn : answer.data.companyNameEn;
    $join.set({ ...$join.get(), companyName: name, lookup: 'found' });
  } else {
    $join.set({ ...$join.get(), companyName: '', lookup: 'unknown' });
    form.fail('invitationCode', problemOf(answer));
  }
}

export function validateJoin(): boolean {
  const s = $join.get();
  const errors: Partial<Record<JoinField, Problem>> = {};
  if (!s.invitationCode) errors.invitationCode = { key: 'onboarding.errors.invitationCodeRequired' };
  else if (!invitationCodeSchema.safeParse(s.invitationCode).success) errors.invitationCode = { key: 'onboarding.errors.invitationCodeInvalid' };
  else if (s.lookup === 'unknown') errors.invitationCode = $joinErrors.get().invitationCode ?? { key: 'onboarding.errors.invitationCodeInvalid' };
  if (!collapse(s.nickName)) errors.nickName = { key: 'onboarding.errors.realNameRequired' };
  else if (hiddenCharacterIn(collapse(s.nickName))) errors.nickName = { key: 'errors.hiddenCharacters' };
  const email = emailProblem(s.personalEmail);
  if (email) errors.personalEmail = email;
  const phone = phoneProblem(s.areaId, s.contactTel);
  if (phone) errors.contactTel = phone;
  if (s.hireTime && !isoDateSchema.safeParse(s.hireTime).success) errors.hireTime = { key: 'onboarding.errors.hireDateInvalid' };
  return form.check(errors);
}

export function submitJoin() {
  return submitChecked(form, validateJoin, { key: 'onboarding.errorSummary' }, async () => {
    const s = $join.get();
    const result = await onboardingApi.join({
      companyId: s.invitationCode,
      companyNameEn: s.companyName || undefined,
      nickName: collapse(s.nickName),
      personalEmail: stripSpacesAndCommas(s.personalEmail),
      contactTel: stripSpacesAndCommas(s.contactTel),
      phoneCode: s.phoneCode,
      hireTime: s.hireTime || undefined,
    });
    if (!result.ok) return form.failure(result);
    track('join_requested');
    // The same shape as login case 5 (staff awaiting approval): no ifJumpToSaas.
    const query = new URLSearchParams({ userType: '2', loginType: String(await currentLoginType(env.search)) });
    form.leaving();
    env.navigate(`/completion_of_application?${query}`);
  });
}
