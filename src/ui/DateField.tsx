import type { Lang } from '../lib/lang';
import { REQUIRED_CLASS } from './FieldFrame';

interface DateFieldProps {
  /** The group's id; its parts are `${id}-year`, `${id}-month`, `${id}-day`, the hint and error `${id}-hint`, `${id}-error`. */
  id: string;
  label: string;
  lang: Lang;
  /** 'YYYY-MM-DD', '' for none, or a partial date as typed ('1990--', which the form's check refuses). */
  value: string;
  onChange: (value: string) => void;
  labels: { year: string; month: string; day: string };
  error?: string;
  hint?: string;
  required?: boolean;
}

const monthNames = (lang: Lang) => {
  // 5 (not 五, not 5月: the 月 after the select says it, issue 33) on Chinese pages; May on English ones.
  if (lang === 'zh') return Array.from({ length: 12 }, (_, i) => String(i + 1));
  const format = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, i) => format.format(Date.UTC(2000, i, 1)));
};

/**
 * A date as three parts in the page's own order and words (2024 年 3 月 1 日, or 1 March 2024), whatever the
 * browser's locale: a native date input shows the browser's format, which on a Chinese page can be English.
 */
export function DateField({ id, label, lang, value, onChange, labels, error, hint, required }: DateFieldProps) {
  const [year = '', month = '', day = ''] = value.split('-');
  const set = (parts: { year?: string; month?: string; day?: string }) => {
    const next = { year, month, day, ...parts };
    onChange(next.year || next.month || next.day ? `${next.year}-${next.month}-${next.day}` : '');
  };
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': described, required } as const;
  const zh = lang === 'zh';
  const unit = (text: string) => zh && <span aria-hidden="true" className="date-unit">{text}</span>;
  const yearInput = (
    <input
      {...aria}
      id={`${id}-year`}
      className="input date-year"
      inputMode="numeric"
      maxLength={4}
      placeholder={zh ? '' : labels.year}
      aria-label={labels.year}
      value={year}
      onChange={(event) => set({ year: event.target.value.replace(/\D/g, '') })}
    />
  );
  const monthSelect = (
    <select {...aria} id={`${id}-month`} className="select date-month" aria-label={labels.month} value={month} onChange={(event) => set({ month: event.target.value })}>
      <option value="">{zh ? '' : labels.month}</option>
      {monthNames(lang).map((name, i) => (
        <option key={name} value={String(i + 1).padStart(2, '0')}>
          {name}
        </option>
      ))}
    </select>
  );
  const daySelect = (
    <select {...aria} id={`${id}-day`} className="select date-day" aria-label={labels.day} value={day} onChange={(event) => set({ day: event.target.value })}>
      <option value="">{zh ? '' : labels.day}</option>
      {Array.from({ length: 31 }, (_, i) => String(i + 1)).map((d) => (
        <option key={d} value={d.padStart(2, '0')}>
          {d}
        </option>
      ))}
    </select>
  );
  return (
    <fieldset className="field date-field" aria-describedby={described}>
      <legend className={required ? `field-label ${REQUIRED_CLASS}` : 'field-label'}>{label}</legend>
      <div className="date-parts">
        {zh ? (
          <>
            {yearInput}
            {unit('年')}
            {monthSelect}
            {unit('月')}
            {daySelect}
            {unit('日')}
          </>
        ) : (
          <>
            {daySelect}
            {monthSelect}
            {yearInput}
          </>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
