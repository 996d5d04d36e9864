// The proof-of-work solver's Web Worker: ALTCHA's own worker loop with the browser's WebCrypto PBKDF2
// (its packaged PBKDF2 worker imports Node's crypto). Loaded only when a slider challenge arrives.
import { handler } from 'altcha-lib/workers/shared';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

handler({ deriveKey });
