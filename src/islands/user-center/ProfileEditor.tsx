import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { onboardingApi } from '../../api/onboarding';
import type { Messages } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { REAL_NAME_MAX, SEXES, type Sex } from '../../schemas/profile';
import { closeProfileEditor, saveProfile, setProfileField } from '../../stores/profile-editor';
import { $profileDraft, $profileErrors } from '../../stores/user-center';
import { SearchSelect, type SearchOption } from '../../ui/SearchSelect';
import { FieldFrame } from '../../ui/FieldFrame';
import { DateField } from '../../ui/DateField';
import { TextField } from '../../ui/TextField';
import { useProblems } from '../shared/use-problems';

interface ProfileEditorProps {
  lang: Lang;
  messages: Pick<Messages, 'userCenter' | 'errors'>;
  /** Where focus goes back to when the editor closes (the Edit profile button). */
  onClosed: () => void;
}

/** The user center's "Edit profile" form: real name, country (searchable), birthday, sex (updateUserInfo). */
export function ProfileEditor({ lang, messages, onClosed }: ProfileEditorProps) {
  const m = messages.userCenter;
  const d = useStore($profileDraft);
  const errors = useProblems($profileErrors, messages);
  const first = useRef<HTMLDivElement>(null);

  // Opening moves focus into the form, at its first field.
  useEffect(() => first.current?.querySelector('input')?.focus(), []);

  const searchCountry = async (term: string): Promise<SearchOption[]> => {
    const found = await onboardingApi.searchCountry(term);
    if (!found.ok) return [];
    return found.data.map((c) => ({ value: c.id, label: lang === 'zh' ? c.nameCn : c.name, detail: lang === 'zh' ? c.name : c.nameCn }));
  };
  const close = () => {
    closeProfileEditor();
    onClosed();
  };

  return (
    <form
      className="profile-editor"
      aria-labelledby="profile-editor-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        void saveProfile().then(() => {
          if ($profileDraft.get().open) form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
          else onClosed();
        });
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !(event.target as HTMLElement).matches('[role="combobox"][aria-expanded="true"]')) close();
      }}
    >
      <h3 id="profile-editor-title" className="subsection-title">{m.editorTitle}</h3>
      <p className="hint required-legend">{m.requiredLegend}</p>
      <div className="form-grid" ref={first}>
        <TextField
          id="profile-real-name"
          label={m.realName}
          value={d.realName}
          onChange={(v) => setProfileField('realName', v)}
          error={errors.realName}
          maxLength={REAL_NAME_MAX}
          autoComplete="name"
          required
        />
        <SearchSelect
          id="profile-country"
          label={`${m.country} (${m.optional})`}
          value={d.country ? { value: d.country.id, label: d.country.name } : null}
          search={searchCountry}
          onChange={(option) => setProfileField('country', option ? { id: option.value, name: option.label } : null)}
          labels={{ placeholder: m.countryPlaceholder, searching: m.searching, noResults: m.noResults }}
          error={errors.country}
        />
        <DateField
          id="profile-birthday"
          lang={lang}
          label={`${m.birthday} (${m.optional})`}
          labels={m.dateParts}
          value={d.birthday}
          onChange={(v) => setProfileField('birthday', v)}
          error={errors.birthday}
          hint={m.birthdayHint}
        />
        <FieldFrame id="profile-sex" label={`${m.sex} (${m.optional})`} error={errors.sex}>
          {(aria) => (
            <select {...aria} id="profile-sex" className="select" value={d.sex} onChange={(event) => setProfileField('sex', event.target.value as Sex | '')}>
              <option value="">{m.sexUnset}</option>
              {SEXES.map((sex) => (
                <option key={sex} value={sex}>
                  {m.sexes[sex]}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
      </div>
      {errors.form && (
        <p className="error form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={d.busy}>
          {d.busy ? m.saving : m.save}
        </button>
        <button type="button" className="button secondary" onClick={close}>
          {m.cancel}
        </button>
      </div>
    </form>
  );
}
