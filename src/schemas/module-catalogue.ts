import * as z from 'zod/mini';
import { checked } from './checked.ts';
import { COMPANY_TYPES, companyTypeSchema } from './company-types.ts';

/**
 * The web app's modules (content/platform/modules.yaml, owned by the platform): which company types see each,
 * with zh and en names. Checked at build by scripts/module-catalogue.mjs; imports only zod and files that do,
 * so Node loads it without a bundler.
 */

/** 'port-calls': lower-case words joined by hyphens; the key never changes once granted. */
export const MODULE_KEY_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const moduleKeySchema = checked(z.string(), z.maxLength(40), z.regex(MODULE_KEY_PATTERN));

/** One module as the platform configures it. */
export const moduleEntrySchema = z.strictObject({
  key: moduleKeySchema,
  zh: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(40)),
  en: checked(z.string(), z.trim(), z.minLength(1), z.maxLength(60)),
  /** The company types that see the module (the wire names of COMPANY_TYPES). */
  companyTypes: checked(z.array(companyTypeSchema), z.minLength(1)),
});
export type ModuleEntry = z.infer<typeof moduleEntrySchema>;

/** The whole file: unique keys, and every company type sees at least one module. */
export const moduleCatalogueSchema = checked(
  z.strictObject({ modules: checked(z.array(moduleEntrySchema), z.minLength(1)) }),
  z.superRefine((catalogue, ctx) => {
    const seen = new Set<string>();
    catalogue.modules.forEach((entry, i) => {
      if (seen.has(entry.key)) ctx.addIssue({ code: 'custom', path: ['modules', i, 'key'], message: `duplicate key "${entry.key}"`, input: entry.key });
      seen.add(entry.key);
    });
    for (const type of COMPANY_TYPES) {
      if (!catalogue.modules.some((entry) => entry.companyTypes.includes(type))) {
        ctx.addIssue({ code: 'custom', path: ['modules'], message: `no module for company type "${type}"`, input: type });
      }
    }
  }),
);
export type ModuleCatalogue = z.infer<typeof moduleCatalogueSchema>;


