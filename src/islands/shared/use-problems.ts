import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';
import type { Messages } from '../../i18n';
import { problemText, type Problem } from '../../i18n/problem';

/** A form's errors in the island's words: the store keeps problems, the island says them. */
export function useProblems<F extends string>($errors: ReadableAtom<Partial<Record<F, Problem>>>, messages: Partial<Messages>): Partial<Record<F, string>> {
  const problems = useStore($errors) as Partial<Record<F, Problem>>;
  const words: Partial<Record<F, string>> = {};
  for (const field in problems) if (problems[field]) words[field] = problemText(messages, problems[field]);
  return words;
}
