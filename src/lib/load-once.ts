/**
 * "Load once, forget a failed load": the returned loader starts `load` on its first call, and every caller until it
 * settles shares that one promise (a burst of clicks imports a chunk once). A load that fails is forgotten, so the
 * next call tries again (a dropped connection does not break the page for good). Used for the code a form loads on
 * its first use (stores/join.ts, company.ts, user-center.ts, uploads.ts).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
