import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** How many method-and-path answers a router keeps; past it, it starts again from none. */
export const MEMO_ROUTER_PATHS = 512;
/** Longer paths are matched every time: an answer holds its path, and none of the portal's is near this long. */
export const MEMO_ROUTER_PATH_LENGTH = 256;

/**
 * Hono's default router (SmartRouter: RegExpRouter, else TrieRouter) with its answers kept per method and path.
 * The gateway's 600 routes mix static and named segments at one place (`/people/closing`, `/people/:id`), which
 * RegExpRouter refuses, so it walks TrieRouter's tree on every call: with the edge's router, 5 % of a signed-in
 * call's CPU profile (issue 46). A route's answer depends on its method and path alone, and Hono only reads it. Kept
 * answers are bounded in number and in the length of their paths: a script asking for endless made-up paths only
 * makes the router start again, and long ones are never kept.
 */
export class MemoRouter<T> implements Router<T> {
  name = 'MemoRouter';
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
  readonly #kept = new Map<string, Result<T>>();

  /** How many answers it holds now. */
  get keptAnswers(): number {
    return this.#kept.size;
  }

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let answer = this.#kept.get(key);
    if (answer === undefined) {
      answer = this.#inner.match(method, path);
      if (path.length > MEMO_ROUTER_PATH_LENGTH) return answer;
      if (this.#kept.size >= MEMO_ROUTER_PATHS) this.#kept.clear();
      this.#kept.set(key, answer);
    }
    return answer;
  }
}
