/**
 * A message with its `{name}` placeholders filled in. Every placeholder of a name is filled (a message may name
 * one twice); one without a value stays as written, so a caller can split on it. Values go in as they are: a
 * `$&` or a `{name}` inside a value is never read as a pattern or a placeholder, as chained `.replace` calls did.
 */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  // Own values only: `{constructor}` is no value of every object.
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : placeholder));
}
