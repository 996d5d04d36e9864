import { useEffect } from 'react';
import type { Lang } from '../lib/lang';
import type { PhoneCodeItem } from '../schemas/dictionaries';
import { FieldFrame } from './FieldFrame';
import { useAreaCodes } from './use-area-codes';

interface PhoneFieldProps {
  id: string;
  /** The field's label and the area-code picker's accessible name. */
  labels: { phone: string; areaCode: string };
  lang: Lang;
  /** Loads the area-code list (loadPhoneCodes, or a lazy import of it); null until it should load. Stable. */
  loadAreaCodes: (() => Promise<PhoneCodeItem[]>) | null;
  /**
   * The picked area ('' when only its calling code is known, as in a loaded record: the list's entry is found
   * for it), its calling code (shown until the list arrives) and the number as typed.
   */
  phone: { areaId: string; callingCode: string; mobile: string };
  error?: string;
  onAreaChange: (item: PhoneCodeItem) => void;
  onMobileChange: (value: string) => void;
  /** The number must be given (the forms that ask for a contact phone). */
  required?: boolean;
}

/** Phone number with its country-code picker, and the picker's list. */
export function PhoneField({ id, labels, lang, loadAreaCodes, phone, error, onAreaChange, onMobileChange, required }: PhoneFieldProps) {
  const { areaId, callingCode, mobile } = phone;
  const areaCodes = useAreaCodes(loadAreaCodes);
  const current = areaCodes.find((item) => item.id === areaId);
  useEffect(() => {
    const item = areaId ? undefined : areaCodes.find((c) => c.phoneCode === callingCode);
    if (item) onAreaChange(item);
  }, [areaCodes, areaId, callingCode]);
  return (
    <FieldFrame id={id} label={labels.phone} error={error} required={required}>
      {(aria) => (
        <div className="phone-input">
          <span className="area-code">
            <select
              className="select"
              aria-label={labels.areaCode}
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
            {/* Closed, the picker shows the code alone: the country or region names are for its list (issue 19). */}
            <span className="area-code-value" aria-hidden="true">
              {current?.phoneCode ?? callingCode}
            </span>
          </span>
          <input
            {...aria}
            id={id}
            className="input"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            value={mobile}
            maxLength={20}
            required={required}
            onChange={(event) => onMobileChange(event.target.value)}
          />
        </div>
      )}
    </FieldFrame>
  );
}
