import * as ERR from '../schemas/error-names';
import { task } from 'nanostores';
import { fetchMeContact } from '../api/me-contact';
import { CONNECTION_ERROR, NETWORK_ERROR } from '../api/result';
import { DEFAULT_AREA_CODE_ID } from '../schemas/auth-rules';
import type { PhoneCodeItem } from '../schemas/dictionaries';
import { INVITATION_LENGTH } from '../schemas/invitation-code';
import { loadOnce } from '../lib/load-once';
import { realBrowser, type BrowserEnv } from './browser';
import { createForm } from './form';

/**
 * The staff form: /join. The company name fills itself from the invitation code. The form's state, its prefill
 * and its edits are here; the code's look-up, the checks and the submit, with the onboarding contracts they
 * parse, are in join-actions.ts, which loads on the form's first focus or on the first call (issue 31).
 */

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
  codes: { [ERR.INVITATION_CODE_UNKNOWN]: 'invitationCode', [ERR.COMPANY_CLOSED_TO_MEMBERS]: 'invitationCode', [ERR.PHONE_INVALID]: 'contactTel', [ERR.EMAIL_INVALID]: 'personalEmail' },
  alsoOnForm: true,
  fieldOfValue: { areaId: 'contactTel', phoneCode: 'contactTel' },
  keep: { name: 'join', values: ['invitationCode', 'nickName', 'personalEmail', 'areaId', 'phoneCode', 'contactTel', 'hireTime'] },
});
export const $join = form.$values;
export const $joinErrors = form.$errors;

/** What join-actions.ts works on: the form, the page's language and browser, the look-up's ticket. */
const joinContext = { form, lang: 'en' as 'zh' | 'en', env: undefined as unknown as BrowserEnv, lookupTicket: 0 };
export type JoinContext = typeof joinContext;

/** The look-up, checks and submit: loaded once; every caller waits for the same load. A failed load is tried again. */
const loadActions = loadOnce(() => import('./join-actions'));
const noActions = () => undefined;
/** Starts loading the checks and submit before they are needed (the form's first focus). */
export const prepareJoin = () => void loadActions().catch(noActions);

export function initJoin(language: 'zh' | 'en', browser: BrowserEnv = realBrowser()) {
  joinContext.lang = language;
  joinContext.env = browser;
  form.reset();
  const kept = form.restoreKept();
  const code = kept?.invitationCode || new URLSearchParams(browser.search).get('code');
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
  const me = await fetchMeContact();
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
  // Without its code (no connection) the look-up waits for the next blur or the submit.
  const loaded = await loadActions().catch(noActions);
  return loaded?.lookUpCompany(joinContext);
}

/**
 * Checks the form and sends it. A doubled click waits for the same load, and the first call then marks the form
 * busy before the second runs, so one request is sent.
 */
export async function submitJoin() {
  const loaded = await loadActions().catch(noActions);
  // The checks could not load: said at the form as a call without an answer is, in the page's words.
  if (!loaded) return void form.fail('form', { code: typeof navigator !== 'undefined' && !navigator.onLine ? NETWORK_ERROR : CONNECTION_ERROR });
  return loaded.submitJoin(joinContext);
}
