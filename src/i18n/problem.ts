import { NETWORK_ERROR } from '../api/result';
import type { Messages } from './en';

/** 'signIn.codeSent': the dotted path of one message, checked against the key set every locale provides. */
export type MessageKey<T = Messages, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : MessageKey<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/**
 * What a form field or notice says, kept by stores as data and put into words by the island: a message key
 * (with `{name}` values, themselves words or other problems), or a gateway failure (its code, and the gateway's
 * own text, which is already in the visitor's language). Several problems are shown one after another.
 */
export type Problem =
  | { key: MessageKey; values?: Record<string, string | Problem> }
  | { code: string; message?: string }
  | Problem[];

/** The words of a problem in the island's messages (a network failure and an empty gateway message have default words). */
export function problemText(messages: Partial<Messages>, problem: Problem): string {
  if (Array.isArray(problem)) return problem.map((p) => problemText(messages, p)).join(' ');
  if ('code' in problem) return problem.code === NETWORK_ERROR ? messages.errors!.network : problem.message || messages.errors!.generic;
  let text: unknown = messages;
  for (const part of problem.key.split('.')) text = (text as Record<string, unknown> | undefined)?.[part];
  return String(text ?? problem.key).replace(/\{(\w+)\}/g, (all, name: string) => {
    const value = problem.values?.[name];
    return value === undefined ? all : typeof value === 'string' ? value : problemText(messages, value);
  });
}

/** A problem by key, for the common case without values. */
export const problem = (key: MessageKey, values?: Record<string, string | Problem>): Problem => (values ? { key, values } : { key });
