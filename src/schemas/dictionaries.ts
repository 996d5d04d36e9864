import * as z from 'zod/mini';

/** Country phone code item: id, name, nameCn, phoneCode. `id` is the ISO 3166-1 alpha-2 code. */
export const phoneCodeItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  nameCn: z.string(),
  phoneCode: z.string(),
});
export type PhoneCodeItem = z.infer<typeof phoneCodeItemSchema>;
export const phoneCodeListSchema = z.array(phoneCodeItemSchema);

export { DEFAULT_AREA_CODE_ID } from './auth-rules';

/** queryIPRegion answers 1 for the China region, 0 otherwise. */
export const ipRegionSchema = z.union([z.literal(0), z.literal(1)]);
