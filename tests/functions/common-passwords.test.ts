import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNewPasswordAllowed, isCommonPassword } from '../../functions/gateway/identity/passwords';
import { hashPassword as clientHash } from '../../src/lib/password-hash';
import { blockedPasswords } from '../../scripts/common-passwords.ts';
import { startWorkerEnv } from './worker-env';

/**
 * The common-password blocklist (PW0002) as the Worker reads it: a D1 table of hash prefixes, migrated like every
 * other table. The server only ever sees the SHA-256 the browser sends, so that is what is checked.
 */
let platform: Awaited<ReturnType<typeof startWorkerEnv>>;
let db: D1Database;
beforeAll(async () => {
  platform = await startWorkerEnv('common-passwords');
  db = platform.env.DB;
});
afterAll(() => platform.dispose());

describe('common-password blocklist', () => {
  it('refuses listed passwords by their hash and lets others through', async () => {
    expect(await isCommonPassword(db, await clientHash('123456'))).toBe(true);
    expect(await isCommonPassword(db, await clientHash('Password1'))).toBe(true);
    expect(await isCommonPassword(db, await clientHash('Harbour7Crane2024'))).toBe(false);
    await expect(assertNewPasswordAllowed(db, await clientHash('qwerty123'))).rejects.toMatchObject({ code: 'PW0002' });
    await expect(assertNewPasswordAllowed(db, await clientHash('Harbour7Crane2024'))).resolves.toBeUndefined();
    // Not lower-case hex: not what a browser sends, and never on the list.
    expect(await isCommonPassword(db, (await clientHash('123456')).toUpperCase())).toBe(false);
  });

  it('holds every listed password, as the word list did', async () => {
    const words = blockedPasswords();
    const listed = await db.prepare('SELECT COUNT(*) AS n FROM common_password_hashes').first<{ n: number }>();
    expect(listed?.n).toBe(words.length);
    // A sample across the list, read the way the Worker reads it (one primary-key read each).
    const sample = words.filter((_, i) => i % 50 === 0);
    const refused = await Promise.all(sample.map(async (word) => isCommonPassword(db, await clientHash(word))));
    expect(refused.filter((r) => !r)).toHaveLength(0);
  });

  it('lets through ordinary passwords off the list', async () => {
    const listed = new Set(blockedPasswords());
    const words = ['Harbour', 'crane', 'Anchor', 'pilot', 'Berth', 'quay', 'Vessel', 'tug'];
    const offList = words.flatMap((word, i) => Array.from({ length: 25 }, (_, n) => `${word}${(n * 7919 + i * 131) % 100000}x`)).filter((w) => !listed.has(w));
    const refused = await Promise.all(offList.map(async (word) => isCommonPassword(db, await clientHash(word))));
    expect(refused.filter(Boolean)).toHaveLength(0);
  });
});
