// A smaller stand-in for Vite's dynamic-import preload helper (issue 31). Vite's own is on every page (0.9 KB gzip
// of the layout chunk); this one keeps its contract for this site: a lazy chunk's stylesheets load before the chunk
// runs (an error rejects, as Vite's does when no `vite:preloadError` listener prevents it) and its JS dependencies
// are preloaded beside it. What it drops serves no page here: CSP nonces (the CSP allows 'self'), relative bases.
// astro.config.mjs answers Vite's internal module id with it; should that id change, Vite's own helper is used.
export const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';
export const preloadHelper = `const seen = {};
export const __vitePreload = (load, deps) =>
  deps && deps.length
    ? Promise.all(
        deps.map((dep) => {
          const href = '/' + dep;
          if (href in seen) return seen[href];
          const css = href.endsWith('.css');
          const link = document.createElement('link');
          link.rel = css ? 'stylesheet' : 'modulepreload';
          link.href = href;
          document.head.appendChild(link);
          return (seen[href] = css
            ? new Promise((resolve, reject) => {
                link.onload = resolve;
                link.onerror = () => reject(new Error('Unable to preload CSS for ' + href));
              })
            : undefined);
        }),
      ).then(load)
    : load();
`;
