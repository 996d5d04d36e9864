// The floor Worker (issue 46): what a signed-in call and a code pair cost on this runtime with nothing but the
// database work they cannot skip. No rules, no caps, no envelope: a ceiling for the portal to be measured against.
import { Hono } from 'hono';

type Env = { DB: D1Database };
const app = new Hono<{ Bindings: Env }>();

const tokenOf = (cookie: string | undefined) => /(?:^|;\s*)floor_token=([A-Za-z0-9_-]+)/.exec(cookie ?? '')?.[1];
const PROFILE = JSON.stringify({ companies: [{ id: 'c_1', name: 'Floor Shipping Co., Ltd.', role: 'admin', modules: ['port-calls', 'bunkering'] }], phone: '+8613800000000', avatar: null, country: 'CN', timezone: 'Asia/Shanghai', marketing: false, twoStep: false, passkeys: 0, lastSignIn: 1_764_000_000_000, about: 'x'.repeat(400) });

async function newSession(db: D1Database, email: string) {
  const token = crypto.randomUUID().replaceAll('-', '') + crypto.randomUUID().replaceAll('-', '');
  const now = Date.now();
  await db
    .prepare('INSERT INTO sessions (token, user_id, created_at, expires_at, email, name, lang, profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(token, `u_${email}`, now, now + 7 * 86_400_000, email, 'Floor Person', 'en', PROFILE)
    .run();
  return token;
}
const cookieOf = (token: string) => `floor_token=${token}; Path=/; HttpOnly; SameSite=Lax`;

// A signed-in call: one prepared read by primary key, one JSON answer.
app.get('/session', async (c) => {
  const token = tokenOf(c.req.header('cookie'));
  const row = token
    ? await c.env.DB.prepare('SELECT user_id, email, name, lang, profile, expires_at FROM sessions WHERE token = ?').bind(token).first()
    : null;
  if (!row || (row.expires_at as number) < Date.now()) return c.json({ code: 'TK00001' }, 401);
  return c.json({ code: '0', data: row });
});

// A session to measure with (the harness's set-up, not measured).
app.post('/sign-up', async (c) => {
  const { email } = await c.req.json<{ email: string }>();
  return c.json({ code: '0' }, 200, { 'set-cookie': cookieOf(await newSession(c.env.DB, email)) });
});

// The code pair: send is one insert; sign-in is one conditional update returning, then one insert (the session).
app.post('/code/send', async (c) => {
  const { email } = await c.req.json<{ email: string }>();
  const code = String((crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % 1_000_000).padStart(6, '0');
  await c.env.DB.prepare('INSERT INTO codes (email, code, created_at) VALUES (?, ?, ?)').bind(email, code, Date.now()).run();
  return c.json({ code: '0' });
});
app.post('/code/sign-in', async (c) => {
  const { email, code } = await c.req.json<{ email: string; code: string }>();
  const used = await c.env.DB
    .prepare('UPDATE codes SET used_at = ?1 WHERE email = ?2 AND code = ?3 AND used_at IS NULL AND created_at > ?1 - 300000 RETURNING id')
    .bind(Date.now(), email, code)
    .first();
  if (!used) return c.json({ code: 'CD0014' });
  return c.json({ code: '0' }, 200, { 'set-cookie': cookieOf(await newSession(c.env.DB, email)) });
});

// The local outbox's equivalent, as the harness reads the portal's: the newest code of an address.
app.get('/dev/code', async (c) => {
  const row = await c.env.DB.prepare('SELECT code FROM codes WHERE email = ? ORDER BY id DESC LIMIT 1').bind(c.req.query('email') ?? '').first();
  return row ? c.json({ code: row.code }) : c.json({ code: 'none' }, 404);
});

app.get('/health', (c) => c.text('ok'));

export default app;
