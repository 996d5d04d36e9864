export const BUDGET: { readonly loginJs: number; readonly dataPageJs: number; readonly pageJs: number; readonly staticJs: number; readonly css: number };
export const DATA_PAGES: readonly string[];
export const SIGN_IN_ENTRY_PAGES: readonly string[];
export function jsBudgetOf(path: string, options?: { plain?: boolean }): number;
