import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCollection } from 'astro:content';
import { glob, type Loader } from 'astro/loaders';
import {
  checkLegalPairs,
  checkLegalVersions,
  LegalContentError,
  legalFrontMatterSchema,
  parseLegalFile,
  type LegalEntry,
  type LegalFrontMatter,
} from './lib/legal';
import { legalBuildMode } from './lib/legal-values';
import { checkLegalValuesIn, parseLegalSource } from '../scripts/legal-source.ts';

/**
 * The glob loader over content/legal/{zh,en}/*.md, with the checks editors rely on: a bad file fails
 * the build with a message that names the file and the field, a text that exists in one language only
 * fails it naming the missing counterpart, and two languages on different versions fail it naming both.
 * Values: an unknown `{{name}}` fails it naming the file and the name, and a production build
 * (PORTAL_BUILD=production) fails naming every file and field whose value is still pending.
 */
function legalLoader(): Loader {
  const files = glob({ pattern: '*/*.md', base: './content/legal' });
  return {
    name: 'legal-loader',
    async load(context) {
      const root = fileURLToPath(context.config.root);
      await files.load({
        ...context,
        // Astro reads front matter with js-yaml, which turns an unquoted date into a Date (and 2026-02-30
        // into 2 March): read the file again with the checked reader and hand the schema its strings.
        parseData: async (entry) => {
          const file = relative(root, entry.filePath!).replaceAll('\\', '/');
          const { data } = parseLegalSource(file, await readFile(entry.filePath!, 'utf8'));
          return context.parseData({ ...entry, data: data as unknown as typeof entry.data });
        },
      });
      const stored = [...context.store.values()].map((entry) => ({ file: entry.filePath!, data: entry.data }));
      checkLegalPairs(stored.map(({ file }) => file));
      // Both languages of a document are one agreement: same version, same effective date.
      checkLegalVersions(
        stored.map(({ file, data }): LegalEntry => ({ file, ...parseLegalFile(file)!, data: data as LegalFrontMatter })),
      );
      // Read from the files on every build: an entry rendered in an earlier build is not parsed again.
      checkLegalValuesIn(root, legalBuildMode(process.env));
      for (const entry of context.store.values()) {
        // Astro only logs an error thrown while rendering (the plugin's, for one): a text must not go out blank.
        if (!entry.rendered) throw new LegalContentError(`${entry.filePath}: could not be rendered (the reason is printed above)`);
        // The plugin fills running text only; a name left in code, a link's address or HTML would show as written.
        if (/\{\{|%7B%7B/i.test(entry.rendered.html)) {
          throw new LegalContentError(`${entry.filePath}: a {{name}} in code, a link's address or HTML is not filled in: put it in running text`);
        }
      }
    },
  };
}

export const collections = {
  legal: defineCollection({ loader: legalLoader(), schema: legalFrontMatterSchema }),
};
