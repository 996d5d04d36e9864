import type { Messages } from '../../../i18n';

type Names = Messages['actionNames'];

/** An audit action ('user.blocked') in words; an action without words shows as itself. */
export function actionLabel(m: Pick<Messages, 'actionNames'>, action: string): string {
  const [area, name] = action.split('.', 2);
  const group = (m.actionNames as Record<string, Record<string, string> | undefined>)[area ?? ''];
  return (name && group?.[name]) || action;
}

/** Every action with words, as [action, words] pairs: the choices of the audit filter. */
export function actionNames(m: Pick<Messages, 'actionNames'>): [string, string][] {
  return Object.entries(m.actionNames as Names).flatMap(([area, names]) =>
    Object.entries(names as Record<string, string>).map(([name, words]): [string, string] => [`${area}.${name}`, words]),
  );
}
