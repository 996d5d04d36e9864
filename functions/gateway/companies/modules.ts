import type { Lang } from '../../../src/lib/lang';
import type { ModuleEntry } from '../../../src/schemas/module-catalogue';
import { companyTypeFromDb, type GrantedModule } from '../../../src/schemas/onboarding';
import { moduleCatalogue } from '../generated/module-catalogue';

/** The module catalogue (generated/module-catalogue.ts): which modules a company's type has, and a member uses. */


/** The catalogue's modules for a stored company type, in the file's order. */
export function modulesOfType(storedType: string): readonly ModuleEntry[] {
  const type = companyTypeFromDb(storedType);
  return moduleCatalogue.modules.filter((entry) => (entry.companyTypes as readonly string[]).includes(type));
}

export const moduleName = (entry: ModuleEntry, lang: Lang): GrantedModule => ({ key: entry.key, name: entry[lang] });

/**
 * The modules a member may use: every module of the company's type for an active administrator, the granted
 * ones (still in the catalogue for the type) for active staff, none otherwise.
 */
export function modulesOfMember(storedType: string, member: { role: string; status: string }, granted: readonly string[], lang: Lang): GrantedModule[] {
  if (member.status !== 'active') return [];
  const modules = modulesOfType(storedType);
  const visible = member.role === 'administrator' ? modules : modules.filter((entry) => granted.includes(entry.key));
  return visible.map((entry) => moduleName(entry, lang));
}
