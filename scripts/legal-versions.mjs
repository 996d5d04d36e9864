// Writes functions/gateway/generated/legal-versions.ts from the front matter of content/legal/, so the
// gateway knows which version people agree to, and checks the values the texts refer to (operator.yaml).
// Runs before `astro build` (package.json "build"). Fails, naming the file and field, on the same problems
// the content collection rejects; with PORTAL_BUILD=production (npm run deploy) also while a value is pending.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { legalBuildMode, LEGAL_VALUES_FILE } from '../src/lib/legal-values.ts';
import { checkLegalValuesIn, LEGAL_VERSIONS_MODULE, legalVersionsModule, readLegalContent } from './legal-source.ts';

try {
  const { versions } = readLegalContent();
  const mode = legalBuildMode(process.env);
  const pending = checkLegalValuesIn('.', mode);
  if (pending.length) {
    // Staging lists every pending value; a local build says it in one line.
    const detail = mode === 'staging' ? `:\n${pending.join('\n')}` : ` (${pending.at(-1)})`;
    console.warn(`legal-values: ${mode} build shows placeholders for values pending in ${LEGAL_VALUES_FILE}; a production build fails${detail}`);
  }
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
