import type { PhoneCodeItem } from '../schemas/dictionaries';

interface PhoneInputProps {
  id: string;
  label: string;
  areaLabel: string;
  lang: 'zh' | 'en';
  areaCodes: PhoneCodeItem[];
  areaId: string;
  /** The chosen area's calling code, shown until the list arrives (default +86). */
  callingCode?: string;
  mobile: string;
  error?: string;
  onAreaChange: (item: PhoneCodeItem) => void;
  onMobileChange: (value: string) => void;
}

/** Phone number with its country-code picker (spec 2 shared components). */
export function PhoneInput({ id, label, areaLabel, lang, areaCodes, areaId, callingCode = '+86', mobile, error, onAreaChange, onMobileChange }: PhoneInputProps) {
  const current = areaCodes.find((item) => item.id === areaId);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="phone-input">
        <select
          className="select area-code"
          aria-label={areaLabel}
          value={areaId}
          onChange={(event) => {
            const item = areaCodes.find((code) => code.id === event.target.value);
            if (item) onAreaChange(item);
          }}
        >
          {/* Until the list arrives, the current code is still a valid choice. */}
          {!current && <option value={areaId}>{callingCode}</option>}
          {areaCodes.map((item) => (
            <option key={item.id} value={item.id}>
              {`${item.phoneCode} ${lang === 'zh' ? item.nameCn : item.name}`}
            </option>
          ))}
        </select>
        <input
          id={id}
          className="input"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          value={mobile}
          maxLength={20}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onMobileChange(event.target.value)}
        />
      </div>
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
