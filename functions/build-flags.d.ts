/**
 * Defined (as `true`) only when wrangler builds a deployed Worker: wrangler.toml's [env.staging] and
 * [env.production] `define` it, and esbuild then drops every branch that asks `typeof PORTAL_DEPLOYED_BUILD ===
 * 'undefined'`, with the modules only those branches use (the /dev helpers, the providers' stand-ins). Local runs,
 * `wrangler dev`, `astro dev` and the tests leave it undefined. Always test it with `typeof` in the branch itself:
 * esbuild removes a dead branch's imports only when the condition is written there.
 */
declare const PORTAL_DEPLOYED_BUILD: true | undefined;
