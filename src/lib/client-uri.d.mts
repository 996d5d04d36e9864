/** What is wrong with a URI an OpenID client may register, or null (src/lib/client-uri.mjs). */
export function redirectUriProblem(value: string): string | null;
