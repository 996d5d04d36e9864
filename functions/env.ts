/**
 * Bindings of the Worker. `Env` is generated from wrangler.toml by `wrangler types` (npm run typegen);
 * secrets, which wrangler.toml does not list, are added here as issues need them.
 */
export type WorkerEnv = Env;

export type EdgeBindings = { Bindings: WorkerEnv };

// Issue 6: secrets (`wrangler secret put`), which `wrangler types` cannot see in wrangler.toml.
declare global {
  interface Env {
    /** Hand-off key: base64 of 32 random bytes. Absent locally, where DEV_OUTBOX "true" selects a dev key. */
    HANDOFF_KEY?: string;
    /** The key before the last rotation, still accepted (blobs name their key by id). */
    HANDOFF_KEY_PREVIOUS?: string;
  }
}

// Issue 3: the password pepper secret (`wrangler secret put PASSWORD_PEPPER`). Absent locally, where
// DEV_OUTBOX "true" selects a fixed dev pepper (functions/gateway/services/passwords.ts).
declare global {
  interface Env {
    PASSWORD_PEPPER?: string;
  }
}

// Issue 3, codes and captcha: secrets (`wrangler secret put`). Both optional locally: the slider signs with
// a dev key, and the outbox needs no webhook secret.
declare global {
  interface Env {
    /** Signs webhook deliveries (hex HMAC-SHA256 of the body in `x-signature`). */
    DELIVERY_WEBHOOK_SECRET?: string;
    /** Signs passed slider checks and the slider's proof-of-work challenges. */
    CAPTCHA_SECRET?: string;
    /** Turnstile's secret key, for siteverify (CAPTCHA_PROVIDER "turnstile"). */
    TURNSTILE_SECRET?: string;
  }
}
