import { meApi } from '../api/me';
import type { Problem } from '../i18n/problem';
import { hiddenCharacterIn } from '../schemas/display-text';
import { isoDateSchema } from '../schemas/company-members';
import { birthdayProblem, REAL_NAME_MAX } from '../schemas/profile';
import { submitChecked } from './form';
import { $profileDraft, $userCenter, profileForm as profile, say, type ProfileDraft, type ProfileField } from './user-center';

/** The profile editor's edits, checks and save: loaded with the editor (ProfileEditor.tsx), not the first paint. */

export const closeProfileEditor = () => profile.reset();

export const setProfileField = <K extends Exclude<keyof ProfileDraft, 'open'>>(key: K, value: ProfileDraft[K]) => profile.set(key, value);

const collapse = (value: string) => value.trim().replace(/\s+/g, ' ');

/** The rules of updateUserInfo, checked before sending: true when the draft may be sent. */
export function validateProfile(): boolean {
  const d = $profileDraft.get();
  const errors: Partial<Record<ProfileField, Problem>> = {};
  const name = collapse(d.realName);
  if (!name) errors.realName = { key: 'userCenter.profileErrors.realNameRequired' };
  else if (name.length > REAL_NAME_MAX) errors.realName = { key: 'userCenter.profileErrors.realNameTooLong' };
  else if (hiddenCharacterIn(name)) errors.realName = { key: 'errors.hiddenCharacters' };
  if (d.birthday && (!isoDateSchema.safeParse(d.birthday).success || birthdayProblem(d.birthday, Date.now()))) {
    errors.birthday = { key: 'userCenter.profileErrors.birthdayInvalid' };
  }
  return profile.check(errors);
}

export function saveProfile() {
  return submitChecked(profile, validateProfile, { key: 'userCenter.profileErrors.errorSummary' }, async () => {
    const d = $profileDraft.get();
    const answer = await meApi.updateUserInfo({
      realName: collapse(d.realName),
      countryId: d.country?.id ?? null,
      birthday: d.birthday || null,
      sex: d.sex || null,
    });
    if (!answer.ok) return profile.failure(answer);
    $userCenter.setKey('me', answer.data);
    closeProfileEditor();
    say({ key: 'userCenter.saved' });
  });
}
