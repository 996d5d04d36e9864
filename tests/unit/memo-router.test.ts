import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { MEMO_ROUTER_PATH_LENGTH, MEMO_ROUTER_PATHS, MemoRouter } from '../../functions/memo-router';

/** The gateway's kind of table: a static segment beside a named one, which Hono's RegExpRouter refuses. */
function app() {
  return new Hono({ router: new MemoRouter() })
    .use('/people/:id/block', async (c, next) => {
      c.header('x-guard', 'on');
      await next();
    })
    .get('/people/closing', (c) => c.text('closing'))
    .get('/people/:id', (c) => c.text(`person ${c.req.param('id')}`))
    .post('/people/:id/block', (c) => c.text(`blocked ${c.req.param('id')}`));
}

describe('MemoRouter', () => {
  it('answers every call as the route table says, the same on the second ask, with the params of its own path', async () => {
    const routes = app();
    for (let round = 0; round < 2; round++) {
      expect(await (await routes.request('/people/closing')).text()).toBe('closing');
      expect(await (await routes.request('/people/p-1')).text()).toBe('person p-1');
      expect(await (await routes.request('/people/p-2')).text()).toBe('person p-2');
      const blocked = await routes.request('/people/p-3/block', { method: 'POST' });
      expect([await blocked.text(), blocked.headers.get('x-guard')]).toEqual(['blocked p-3', 'on']);
      expect((await routes.request('/people/p-3/block')).status).toBe(404);
      expect((await routes.request('/nowhere')).status).toBe(404);
    }
  });

  it('keeps a bounded number of answers against a script asking for endless made-up paths', async () => {
    const routes = new Hono({ router: new MemoRouter() }).get('/people/closing', (c) => c.text('closing')).get('/people/:id', (c) => c.text(`person ${c.req.param('id')}`));
    for (let i = 0; i < MEMO_ROUTER_PATHS * 3; i++) {
      expect(await (await routes.request(`/people/${i}`)).text()).toBe(`person ${i}`);
      expect((routes.router as MemoRouter<unknown>).keptAnswers).toBeLessThanOrEqual(MEMO_ROUTER_PATHS);
    }
    expect(await (await routes.request('/people/closing')).text()).toBe('closing');
    const before = (routes.router as MemoRouter<unknown>).keptAnswers;
    const long = 'x'.repeat(MEMO_ROUTER_PATH_LENGTH);
    expect(await (await routes.request(`/people/${long}`)).text()).toBe(`person ${long}`);
    expect((routes.router as MemoRouter<unknown>).keptAnswers).toBe(before);
  });
});
