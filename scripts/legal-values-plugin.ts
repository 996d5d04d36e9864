import { fileURLToPath } from 'node:url';
import { satteri } from '@astrojs/markdown-satteri';
import type { MdastPluginDefinition } from 'satteri';
import { LEGAL_ROOT, legalFile, parseLegalFile } from '../src/lib/legal.ts';
import { fillLegalValues, type LegalValues } from '../src/lib/legal-values.ts';
import { readLegalValues } from './legal-source.ts';

// Build-time only: the Markdown step that fills `{{name}}` in the legal texts (astro.config.mjs).

/**
 * An mdast plugin (Sätteri's counterpart of a remark plugin: Astro's default Markdown processor) that replaces
 * every `{{name}}` in the running text of content/legal/{zh,en}/*.md with its value in the file's language, or
 * with the placeholder while it is pending. The value goes in as text, so nothing in it is read as Markdown or
 * HTML. An unknown name throws, naming the file and the name.
 */
export function legalValuesPlugin(values: LegalValues): MdastPluginDefinition & { values: LegalValues } {
  return {
    name: 'legal-values',
    // Plain data on the plugin: Astro compares its config (functions left out) to decide whether the texts
    // it rendered in an earlier build are still good, so a changed value renders every text again.
    values,
    text(node, ctx) {
      if (!node.value.includes('{{') || !ctx.fileURL) return;
      const path = fileURLToPath(ctx.fileURL).replaceAll('\\', '/');
      const legal = path.includes(`/${LEGAL_ROOT}/`) ? parseLegalFile(path) : undefined;
      if (!legal) return;
      ctx.setProperty(node, 'value', fillLegalValues(node.value, legalFile(legal.lang, legal.doc), legal.lang, values));
    },
  };
}

/** The site's Markdown processor: Astro's default, with the values of content/legal/operator.yaml filled in. */
export function legalMarkdownProcessor(root = '.') {
  return satteri({ mdastPlugins: [legalValuesPlugin(readLegalValues(root))] });
}
