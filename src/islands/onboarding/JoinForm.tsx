import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Lang } from '../../lib/lang';
import { loadOnce } from '../../lib/load-once';
import { INVITATION_LENGTH } from '../../schemas/invitation-code';
import { $join, $joinErrors, initJoin, lookUpCompany, prepareJoin, setInvitationCode, setJoinArea, setJoinField, submitJoin } from '../../stores/join';
import { PhoneField } from '../../ui/PhoneField';
import { DateField } from '../../ui/DateField';
import { TextField } from '../../ui/TextField';
import { useProblems } from '../shared/use-problems';

interface JoinFormProps {
  lang: Lang;
  messages: Pick<Messages, 'onboarding' | 'upload' | 'errors'>;
}

/** The area-code list, stable, loaded once the form is first used (as on /login): not with the page (issue 31). */
const loadPhoneCodesLazily = loadOnce(() => import('../../api/dictionaries').then((d) => d.loadPhoneCodes()));

/** /join: the enterprise staff form. The company name fills itself from the invitation code. */
export default function JoinForm({ lang, messages }: JoinFormProps) {
  const m = messages.onboarding;
  const s = useStore($join);
  const errors = useProblems($joinErrors, messages);
  const [prepared, setPrepared] = useState(false);
  // The checks, the submit and the area-code list load when the form is first focused or pointed at (issue 31),
  // well before a person can send it or open the picker's list; until then the picker shows the current code.
  const prepare = () => {
    if (prepared) return;
    setPrepared(true);
    prepareJoin();
  };

  useEffect(() => {
    initJoin(lang);
  }, [lang]);

  // Until the area-code list is in, the picker's one row is the current code with "loading the list" (read out with
  // the picker's value), so a picker opened as the form's first action does not show the current code alone. A row
  // of the list handed to PhoneField, so the fields chunk, which /login shares, carries nothing more (pages8).
  const [codesIn, setCodesIn] = useState(false);
  useEffect(() => {
    const done = () => setCodesIn(true);
    if (prepared) void loadPhoneCodesLazily().then(done, done);
  }, [prepared]);
  const loadingRow = useCallback(
    () => Promise.resolve([{ id: s.areaId, phoneCode: s.phoneCode, name: m.areaCodesLoading, nameCn: m.areaCodesLoading }]),
    [s.areaId, s.phoneCode],
  );

  const companyHint = s.lookup === 'looking' ? m.companyNameLooking : m.companyNameAuto;
  return (
    <form
      className="onboarding join-form"
      noValidate
      onFocus={prepare}
      onPointerEnter={prepare}
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        // After a refused submit, focus goes to the first field that needs attention.
        void submitJoin().then(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      }}
    >
      <p className="hint required-legend">{m.requiredLegend}</p>
      <TextField
        id="invitation-code"
        label={m.invitationCode}
        value={s.invitationCode}
        onChange={setInvitationCode}
        onBlur={() => void lookUpCompany()}
        error={errors.invitationCode}
        hint={m.invitationCodeHint}
        maxLength={INVITATION_LENGTH + 2}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required
      />
      <div className="field">
        <label htmlFor="company-name">{m.companyName}</label>
        <input id="company-name" className="input" value={s.companyName} readOnly aria-readonly="true" aria-describedby="company-name-hint" tabIndex={s.companyName ? 0 : -1} />
        <p id="company-name-hint" className="hint" aria-live="polite">
          {companyHint}
        </p>
      </div>
      <TextField id="nick-name" label={m.realName} value={s.nickName} onChange={(v) => setJoinField('nickName', v)} error={errors.nickName} maxLength={64} autoComplete="name" required />
      <TextField
        id="personal-email"
        label={m.email}
        type="email"
        inputMode="email"
        autoComplete="email"
        value={s.personalEmail}
        onChange={(v) => setJoinField('personalEmail', v)}
        error={errors.personalEmail}
        maxLength={254}
        required
      />
      <PhoneField id="join-tel" labels={m} lang={lang} loadAreaCodes={codesIn ? loadPhoneCodesLazily : loadingRow} phone={{ areaId: s.areaId, callingCode: s.phoneCode, mobile: s.contactTel }} error={errors.contactTel} onAreaChange={setJoinArea} onMobileChange={(v) => setJoinField('contactTel', v)} required />
      <DateField id="hire-time" lang={lang} label={format(m.optionalField, { label: m.hireDate })} labels={m.dateParts} value={s.hireTime} onChange={(v) => setJoinField('hireTime', v)} error={errors.hireTime} />
      {errors.form && (
        <p className="error form-error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" className="button primary" disabled={s.busy}>
        {s.busy ? m.submitting : m.join}
      </button>
      <nav className="links">
        <a href="/enterprise_adm_and_staff">{m.back}</a>
      </nav>
    </form>
  );
}
