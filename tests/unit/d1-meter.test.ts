import { describe, expect, it } from 'vitest';
import { verbOf } from '../../functions/gateway/dev/d1-meter';

// `npm run load` counts reads and writes by a statement's verb (issue 46): a wrong verb makes a read look like a write.
describe('the D1 meter tells a statement by its verb', () => {
  it('takes the first word of a plain statement, in any case and after white space', () => {
    expect(verbOf('SELECT id FROM users WHERE phone = ?')).toBe('select');
    expect(verbOf('\n  insert or replace into codes (id) values (?)')).toBe('insert');
    expect(verbOf('UPDATE codes SET used_at = ? WHERE id = ? RETURNING id')).toBe('update');
    expect(verbOf('DELETE FROM sessions WHERE id = ?')).toBe('delete');
  });

  it('passes over a leading WITH clause and whatever its brackets hold', () => {
    expect(verbOf('WITH fresh AS (SELECT id FROM codes WHERE at > ?) UPDATE codes SET used_at = ? WHERE id IN (SELECT id FROM fresh)')).toBe('update');
    expect(verbOf('WITH a AS (SELECT 1), b AS (SELECT 2) SELECT * FROM a, b')).toBe('select');
    expect(verbOf('WITH gone AS (DELETE FROM x RETURNING id) SELECT 1')).toBe('select');
  });

  it('has no verb for an empty text', () => expect(verbOf('')).toBeNull());
});
