import { phoneCodeListSchema, type PhoneCodeItem } from '../schemas/dictionaries';
import { callGateway } from './client';

const CACHE_KEY = 'areaCodes.v1';

/** selectPhoneCode, the area-code list, cached in local storage (it rarely changes). */
export async function loadPhoneCodes(): Promise<PhoneCodeItem[]> {
  try {
    const cached = phoneCodeListSchema.safeParse(JSON.parse(localStorage.getItem(CACHE_KEY) ?? 'null'));
    if (cached.success && cached.data.length) return cached.data;
  } catch {
    // A broken cache is simply refetched.
  }
  const result = await callGateway('agg-web/country/selectPhoneCode', phoneCodeListSchema, { method: 'GET' });
  if (!result.ok) return [];
  localStorage.setItem(CACHE_KEY, JSON.stringify(result.data));
  return result.data;
}
