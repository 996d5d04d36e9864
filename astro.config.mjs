// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

// Every page is pre-rendered once per language (src/pages/[locale]/…); the Worker in functions/
// picks the shell for the visitor's language and serves it at the exact route, so the build is static.
export default defineConfig({
  output: 'static',
  build: { format: 'file', inlineStylesheets: 'auto' },
  integrations: [react()],
  trailingSlash: 'never',
});
