import { startTransition, useEffect, useState } from 'react';
import type { PhoneCodeItem } from '../schemas/dictionaries';

/**
 * The area-code list of a PhoneInput (selectPhoneCode, cached), loaded once `load` is true. Its 240-odd options
 * render as a transition, in slices that leave the main thread free, not as one long task (issue 9: total
 * blocking time). The api module is imported here, not statically, so a page can put the list off (the sign-in
 * form loads it on first use).
 */
export function useAreaCodes(load = true): PhoneCodeItem[] {
  const [areaCodes, setAreaCodes] = useState<PhoneCodeItem[]>([]);
  useEffect(() => {
    if (!load) return;
    let live = true;
    void import('../api/dictionaries')
      .then((dictionaries) => dictionaries.loadPhoneCodes())
      .then((list) => {
        if (live) startTransition(() => setAreaCodes(list));
      });
    return () => {
      live = false;
    };
  }, [load]);
  return areaCodes;
}
