import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Security headers of the baseline on every answer of the Worker. Files the asset server sends without
 * the Worker (`/_astro/*`, favicon, robots, browser-check.js) get the same set from public/_headers.
 * Scripts are governed by the CSP meta tag Astro writes; this header adds what a meta tag cannot carry.
 */
const baselineHeaders = secureHeaders({
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  contentSecurityPolicy: {
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
  },
  xFrameOptions: 'DENY',
  xContentTypeOptions: 'nosniff',
  referrerPolicy: 'strict-origin-when-cross-origin',
  permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
  // A handler's own stricter choice stands (the hand-off answers Referrer-Policy no-referrer).
  overwrite: false,
});

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by a handler whose answer this site's own pages may frame (see allowFramingBySelf). */
    frameableBySelf?: boolean;
  }
}

/**
 * Lets pages of this origin (and only them) frame this answer: the legal pages, which the agreement modal
 * shows in a frame. Everything else keeps `frame-ancestors 'none'` and DENY.
 */
export function allowFramingBySelf(c: Context): void {
  c.set('frameableBySelf', true);
}

/** The baseline headers, with the framing rule relaxed to 'self' where a handler asked for it. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await baselineHeaders(c, next);
  if (!c.get('frameableBySelf')) return;
  const csp = c.res.headers.get('Content-Security-Policy');
  if (csp) c.res.headers.set('Content-Security-Policy', csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
  c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
};
