import { Fragment } from 'react';

interface TabListProps<T extends string> {
  /** Prefix of the ids: tabs are `{name}-tab-{value}`, and they control the panel `{name}-panel`. */
  name: string;
  label: string;
  /** `tab` or `subtab`; the list gets the plural (`tabs`, `subtabs`). */
  className: 'tab' | 'subtab';
  items: readonly (readonly [T, string])[];
  current: T;
  onSelect: (value: T) => void;
}

/**
 * WAI-ARIA tabs (APG "tabs with automatic activation"): roving tabindex, so Tab reaches the selected tab
 * only; Left/Right wrap around, Home and End jump, and moving selects. Render the panel with `tabPanelProps`.
 */
export function TabList<T extends string>({ name, label, className, items, current, onSelect }: TabListProps<T>) {
  return (
    <div className={`${className}s`} role="tablist" aria-label={label}>
      {items.map(([value, text], index) => (
        <button
          key={value}
          type="button"
          role="tab"
          id={`${name}-tab-${value}`}
          aria-selected={current === value}
          aria-controls={`${name}-panel`}
          tabIndex={current === value ? 0 : -1}
          className={className}
          onClick={() => onSelect(value)}
          onKeyDown={(event) => {
            const last = items.length - 1;
            const next =
              event.key === 'ArrowRight' ? (index === last ? 0 : index + 1)
              : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1)
              : event.key === 'Home' ? 0
              : event.key === 'End' ? last
              : -1;
            if (next < 0) return;
            event.preventDefault();
            const [nextValue] = items[next]!;
            onSelect(nextValue);
            document.getElementById(`${name}-tab-${nextValue}`)?.focus();
          }}
        >
          <WholeWords text={text} />
        </button>
      ))}
    </div>
  );
}

/**
 * A label that may wrap between words but never inside one: a narrow screen breaks "Password sign-in" after
 * "Password", never at the hyphen of "sign-in". The accessible name is the same text.
 */
function WholeWords({ text }: { text: string }) {
  return text.split(' ').map((word, index) => (
    <Fragment key={index}>
      {index > 0 && ' '}
      <span className="whole-word">{word}</span>
    </Fragment>
  ));
}

/**
 * The attributes of the panel a TabList controls. `labelled: false` leaves it unnamed where its tab's text
 * contains a field label inside it (the E-mail tab and the E-mail field, 验证码登录 and 验证码): a label
 * should name one control.
 */
export const tabPanelProps = (name: string, current: string, labelled = true) =>
  ({ role: 'tabpanel', id: `${name}-panel`, 'aria-labelledby': labelled ? `${name}-tab-${current}` : undefined }) as const;
