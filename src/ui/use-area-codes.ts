import { startTransition, useEffect, useState } from 'react';
import type { PhoneCodeItem } from '../schemas/dictionaries';

/**
 * The area-code list of a PhoneInput, from `load` (loadPhoneCodes, or a lazy import of it), or nothing while
 * `load` is null. Its 240-odd options render as a transition, in slices that leave the main thread free, not as
 * one long task that blocks the main thread. `load` should be a stable function (defined at module level).
 */
export function useAreaCodes(load: (() => Promise<PhoneCodeItem[]>) | null): PhoneCodeItem[] {
  const [areaCodes, setAreaCodes] = useState<PhoneCodeItem[]>([]);
  useEffect(() => {
    if (!load) return;
    let live = true;
    void load().then((list) => {
      if (live) startTransition(() => setAreaCodes(list));
    });
    return () => {
      live = false;
    };
  }, [load]);
  return areaCodes;
}
