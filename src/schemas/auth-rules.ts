/**
 * The plain values and checks of the sign-in contracts (schemas/auth.ts re-exports them). No zod here: the
 * sign-in page's first load needs these, and the schema library loads only when the form first calls the
 * gateway (this keeps /login's JavaScript small and its main thread free).
 */

/** Spaces and commas are stripped from phone numbers and e-mail addresses (pasted values often carry them). */
export const stripSpacesAndCommas = (value: string) => value.replace(/[\s,，]/g, '');

export const LOGIN_TYPE = { phone: 1, email: 2 } as const;

/** New passwords are 6 to 18 letters and digits (one place to change it). */
export const PASSWORD_RULE = { min: 6, max: 18, pattern: /^[A-Za-z0-9]{6,18}$/ } as const;
export const meetsPasswordRule = (password: string) => PASSWORD_RULE.pattern.test(password);

/** The client sends SHA-256 hex of the password (passwordVersion 2) or of password + salt (version 1). */
export const PASSWORD_VERSION = { salted: 1, plain: 2 } as const;

/** New users pick an identity: the principal (cargo/ship side) or a service provider. */
export const USER_IDENTITY = { principal: 1, serviceProvider: 2 } as const;
/** The new user's company name is required, at most 50 characters. */
export const NEW_USER_COMPANY_MAX = 50;

/** Fixed login parameters the gateway expects: grant type password, scope server, a fixed client id and secret. */
export const LOGIN_CLIENT = { grant_type: 'password', scope: 'server', client_id: 'portal', client_secret: 'portal' } as const;

/** Risk check of a sign-in: 100/200 pass, 400 asks for the slider, anything else fails. */
export const TRACELESS = { pass: 100, passTrusted: 200, sliderRequired: 400 } as const;

/** The default area code is a fixed id, the Chinese mainland (schemas/dictionaries.ts re-exports it). */
export const DEFAULT_AREA_CODE_ID = 'CN';
