import { useEffect, useId, useRef, useState } from 'react';
import { FieldFrame } from './FieldFrame';

export interface SearchOption {
  value: string;
  label: string;
  /** Shown after the label, dimmed (a port's code, a country's local name). */
  detail?: string;
}

interface SearchSelectProps {
  id: string;
  label: string;
  value: SearchOption | null;
  /** Called 500 ms after the person stops typing (search inputs are debounced 500 ms, one call per pause). */
  search: (term: string) => Promise<SearchOption[]>;
  onChange: (option: SearchOption | null) => void;
  labels: { placeholder: string; searching: string; noResults: string };
  error?: string;
  hint?: string;
  required?: boolean;
  debounceMs?: number;
}

export const SEARCH_DEBOUNCE_MS = 500;

/**
 * A searchable combobox (WAI-ARIA combobox with a listbox popup): type to search, arrows to move, Enter to
 * pick, Escape to close. Only the latest search's answer is shown, so a storm of keystrokes costs one call
 * per pause and never shows stale results.
 */
export function SearchSelect({ id, label, value, search, onChange, labels, error, hint, required, debounceMs = SEARCH_DEBOUNCE_MS }: SearchSelectProps) {
  const listId = useId();
  const [text, setText] = useState(value?.label ?? '');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<SearchOption[]>([]);
  const [active, setActive] = useState(-1);
  /** The first match is marked for Enter, not chosen by the person: the first ↓ stays on it (↓ Enter after "China" took the second). */
  const marked = useRef(false);
  const [state, setState] = useState<'idle' | 'searching' | 'done'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(0);

  // A value set from outside (a pre-filled port, a loaded company) shows in the input.
  useEffect(() => setText(value?.label ?? ''), [value?.value, value?.label]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const runSearch = (term: string) => {
    clearTimeout(timer.current);
    const ticket = ++latest.current;
    if (!term.trim()) {
      setOptions([]);
      setState('idle');
      return;
    }
    setState('searching');
    timer.current = setTimeout(() => {
      search(term.trim())
        .catch(() => [])
        .then((found) => {
          if (ticket !== latest.current) return; // a newer search is on its way
          setOptions(found);
          setActive(found.length ? 0 : -1);
          marked.current = found.length > 0;
          setState('done');
        });
    }, debounceMs);
  };

  const pick = (option: SearchOption) => {
    onChange(option);
    setText(option.label);
    setOpen(false);
    setActive(-1);
  };

  const showPopup = open && state !== 'idle';
  const optionId = (index: number) => `${id}-option-${index}`;

  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className="search-select" required={required}>
      {(aria) => (
        <div className="search-select-box">
          <input
            id={id}
            className="input"
            type="text"
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={showPopup}
            aria-controls={listId}
            aria-activedescendant={showPopup && active >= 0 ? optionId(active) : undefined}
            {...aria}
            aria-required={required || undefined}
            placeholder={labels.placeholder}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              if (value) onChange(null); // typing replaces the choice
              runSearch(event.target.value);
            }}
            onFocus={() => text && !value && setOpen(true)}
            onBlur={() => {
              // A click on an option lands first (onMouseDown below); otherwise unchosen text is not a value.
              setOpen(false);
              if (!value) setText('');
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') {
                event.preventDefault();
                if (!open) setOpen(true);
                const stay = marked.current;
                marked.current = false;
                setActive((i) => (options.length ? (stay ? Math.max(i, 0) : (i + 1) % options.length) : -1));
              } else if (event.key === 'ArrowUp') {
                event.preventDefault();
                marked.current = false;
                setActive((i) => (options.length ? (i <= 0 ? options.length - 1 : i - 1) : -1));
              } else if (event.key === 'Enter' && showPopup && active >= 0 && options[active]) {
                event.preventDefault();
                pick(options[active]);
              } else if (event.key === 'Escape' && open) {
                event.preventDefault();
                setOpen(false);
              }
            }}
          />
          <ul id={listId} role="listbox" aria-label={label} className="search-select-list" hidden={!showPopup}>
            {state === 'searching' && <li className="search-select-status" role="presentation">{labels.searching}</li>}
            {state === 'done' && options.length === 0 && <li className="search-select-status" role="presentation">{labels.noResults}</li>}
            {state === 'done' &&
              options.map((option, index) => (
                <li
                  key={option.value}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  className="search-select-option"
                  onMouseDown={(event) => {
                    event.preventDefault(); // keep focus in the input
                    pick(option);
                  }}
                  onMouseEnter={() => setActive(index)}
                >
                  <span>{option.label}</span>
                  {option.detail && <span className="search-select-detail">{option.detail}</span>}
                </li>
              ))}
          </ul>
        </div>
      )}
    </FieldFrame>
  );
}
