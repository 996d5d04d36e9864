// Writes migrations/0670_create_common_password_hashes.sql (the common-password blocklist as a D1 table) from
// @zxcvbn-ts/language-common, once. An applied migration is never rewritten: when zxcvbn-ts's list changes
// (tests/unit/passwords.test.ts says so), add a migration that deletes and re-inserts the rows instead.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { COMMON_PASSWORDS_MIGRATION, commonPasswordsMigration } from './common-passwords.ts';

const text = commonPasswordsMigration();
if (!existsSync(COMMON_PASSWORDS_MIGRATION)) {
  writeFileSync(COMMON_PASSWORDS_MIGRATION, text);
  console.log(`common-passwords: wrote ${COMMON_PASSWORDS_MIGRATION}`);
} else if (readFileSync(COMMON_PASSWORDS_MIGRATION, 'utf8') !== text) {
  console.error(`common-passwords: the word list changed since ${COMMON_PASSWORDS_MIGRATION}; add a migration that replaces the rows.`);
  process.exit(1);
} else {
  console.log(`common-passwords: ${COMMON_PASSWORDS_MIGRATION} is up to date`);
}
