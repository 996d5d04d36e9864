import { secureHeaders } from 'hono/secure-headers';

/**
 * Security headers of the baseline on every answer of the Worker. Files the asset server sends without
 * the Worker (`/_astro/*`, favicon, robots) get the same set from public/_headers.
 * Scripts are governed by the CSP meta tag Astro writes; this header adds what a meta tag cannot carry.
 */
export const securityHeaders = secureHeaders({
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
});
