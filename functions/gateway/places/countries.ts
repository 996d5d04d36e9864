import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';
import zh from 'i18n-iso-countries/langs/zh.json';
// The same metadata (mobile) as the phone rules (identity/sign-in-names.ts): importing another set here as well
// would put a second copy of the calling codes, 83 KB, in the Worker.
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/mobile';
import { DEFAULT_AREA_CODE_ID, type PhoneCodeItem } from '../../../src/schemas/dictionaries';

countries.registerLocale(en);
countries.registerLocale(zh);

let cached: PhoneCodeItem[] | undefined;

/**
 * Every country and region that has both a calling code (libphonenumber's metadata) and names in
 * both languages (i18n-iso-countries), mainland China first as the default, then by English name.
 */
export function phoneCodeList(): PhoneCodeItem[] {
  cached ??= getCountries()
    .flatMap((id) => {
      const name = countries.getName(id, 'en');
      const nameCn = countries.getName(id, 'zh');
      return name && nameCn ? [{ id, name, nameCn, phoneCode: `+${getCountryCallingCode(id)}` }] : [];
    })
    .sort((a, b) => Number(b.id === DEFAULT_AREA_CODE_ID) - Number(a.id === DEFAULT_AREA_CODE_ID) || a.name.localeCompare(b.name, 'en'));
  return cached;
}

/** One country or region of phoneCodeList by its ISO id ('CN'); undefined when it is not on the list. */
export function findCountry(id: string): PhoneCodeItem | undefined {
  return phoneCodeList().find((item) => item.id === id);
}

export { isChinaRegion } from '../../../src/lib/region';
