import { CONNECTION_ERROR, NETWORK_ERROR, SERVER_ERROR, TIMEOUT_ERROR } from '../api/result';
import type { ConsoleMessages } from './ops';
import { format } from './format';

/** 'signIn.codeSent': the dotted path of one message, checked against the key set every locale provides. */
export type MessageKey<T = ConsoleMessages, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : MessageKey<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/**
 * What a form field or notice says, kept by stores as data and put into words by the island: a message key
 * (with `{name}` values, themselves words or other problems), or a gateway failure (its code, and the gateway's
 * own text, which is already in the visitor's language). Several problems are shown one after another.
 */
export type Problem =
  | { key: MessageKey; values?: Record<string, string | Problem> }
  | { code: string; message?: string; traceId?: string }
  | Problem[];

/**
 * The words of a problem in the island's messages. No answer says "check your connection"; a failure on our
 * side says so, with the call's trace id to quote; an empty gateway message has default words. None says
 * "refresh the page", which would clear the form.
 */
export function problemText(messages: Partial<ConsoleMessages>, problem: Problem): string {
  if (Array.isArray(problem)) return problem.map((p) => problemText(messages, p)).join(' ');
  if ('code' in problem) {
    const errors = messages.errors!;
    if (problem.code === NETWORK_ERROR) return errors.network;
    if (problem.code === TIMEOUT_ERROR) return errors.timeout;
    if (problem.code === CONNECTION_ERROR) return errors.connection;
    const text = problem.code === SERVER_ERROR ? errors.server : problem.message || (problem.traceId ? errors.server : errors.generic);
    return problem.traceId ? `${text} ${format(errors.reference, { id: problem.traceId })}` : text;
  }
  let text: unknown = messages;
  for (const part of problem.key.split('.')) text = (text as Record<string, unknown> | undefined)?.[part];
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(problem.values ?? {})) values[name] = typeof value === 'string' ? value : problemText(messages, value);
  return format(String(text ?? problem.key), values);
}

/** The problem a failed call reports: its code and message, and the trace id of a failure on our side. */
export const problemOf = (failure: { code: string; message: string; traceId?: string }): Problem => ({
  code: failure.code,
  message: failure.message,
  traceId: failure.traceId,
});

/** A problem by key, for the common case without values. */
export const problem = (key: MessageKey, values?: Record<string, string | Problem>): Problem => (values ? { key, values } : { key });
