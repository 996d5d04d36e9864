// Writes functions/gateway/services/legal-versions.ts from the front matter of content/legal/, so the
// gateway knows which version people agree to. Runs before `astro build` (package.json "build").
// Fails, naming the file and field, on the same problems the content collection rejects.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { LEGAL_VERSIONS_MODULE, legalVersionsModule, readLegalContent } from './legal-source.ts';

try {
  const { versions } = readLegalContent();
  const text = legalVersionsModule(versions);
  // Unchanged files stay untouched, so watchers and wrangler do not rebuild for nothing.
  if (!existsSync(LEGAL_VERSIONS_MODULE) || readFileSync(LEGAL_VERSIONS_MODULE, 'utf8') !== text) {
    writeFileSync(LEGAL_VERSIONS_MODULE, text);
    console.log(`legal-versions: wrote ${LEGAL_VERSIONS_MODULE}`, versions);
  }
} catch (error) {
  console.error(`legal-versions: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
