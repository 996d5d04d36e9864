// Checks content/platform/modules.yaml and writes functions/gateway/generated/module-catalogue.ts from it.
// Runs before `astro build` (package.json "build"): a bad file fails the build, naming the file and field.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { MODULE_CATALOGUE_MODULE, moduleCatalogueModule, readModuleCatalogue } from './module-catalogue.ts';

try {
  const text = moduleCatalogueModule(readModuleCatalogue());
  // Unchanged files stay untouched, so watchers and wrangler do not rebuild for nothing.
  if (!existsSync(MODULE_CATALOGUE_MODULE) || readFileSync(MODULE_CATALOGUE_MODULE, 'utf8') !== text) {
    writeFileSync(MODULE_CATALOGUE_MODULE, text);
    console.log(`module-catalogue: wrote ${MODULE_CATALOGUE_MODULE}`);
  }
} catch (error) {
  console.error(`module-catalogue: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
