// Writes functions/gateway/generated/common-passwords.ts (the common-password blocklist as hash prefixes) from
// @zxcvbn-ts/language-common. Runs before `astro build` (package.json "build").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { COMMON_PASSWORDS_MODULE, commonPasswordsModule } from './common-passwords.ts';

const text = commonPasswordsModule();
// Unchanged files stay untouched, so watchers and wrangler do not rebuild for nothing.
if (!existsSync(COMMON_PASSWORDS_MODULE) || readFileSync(COMMON_PASSWORDS_MODULE, 'utf8') !== text) {
  writeFileSync(COMMON_PASSWORDS_MODULE, text);
  console.log(`common-passwords: wrote ${COMMON_PASSWORDS_MODULE}`);
}
