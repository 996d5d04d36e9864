import { config } from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini carries no messages of its own ("Invalid input" for every issue). Classic zod registered English
// when it loaded, and the envelope's issue messages (and config errors) were written with it: register the
// same English messages, 4 KB, rather than the 70 KB of every locale. Imported by config.ts and validate.ts,
// which every edge and gateway path loads before it parses anything.
config(en());
