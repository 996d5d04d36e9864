// `npm run check`: every message of the English dictionaries (src/i18n/en/, the operator console's and the
// Worker's words included) is read by some code; an unread one is named and fails the check. It runs the
// TypeScript checker over src/ and functions/, which took most of the unit suite's time.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Which message keys (dotted paths of the English dictionaries) the code reads, found by the TypeScript checker
 * rather than by searching for words: `m.nav.people` counts for the `nav.people` of the section `m` is, not for every
 * `people` anywhere. Read are:
 * - a property read of the messages (`m.title`, `const { title } = m`, `m['title']`) in src/ and functions/;
 * - a key written as a string (`problem('twoStep.turnedOn')`, `{ key: 'errors.linkInvalid' }`);
 * - everything under a table indexed by data: `m.methods[entry.method]`, `Object.entries(m.companyTypes)`, or a
 *   template key (`problem(\`opsPeople.actions.${action}\`)`);
 * - in .astro page shells (not TypeScript to the checker): the `m.a.b` chains of `m = messagesFor(locale)`, a
 *   table handed on whole (`m.legal.docs`, `m.pages[shell]`) with everything under it.
 */

const ROOT = resolve(import.meta.dirname, '..');
/** The English area files (`export const signIn = {…}`): their declarations are the keys. */
const EN_AREAS = readdirSync(join(ROOT, 'src/i18n/en'))
  .filter((name) => name.endsWith('.ts') && name !== 'index.ts')
  .map((name) => join(ROOT, 'src/i18n/en', name));
/** Where the areas are composed into one dictionary (`{ signIn, … }`, `{ ops: enOps, … }`): section names only. */
const COMPOSITIONS = ['src/i18n/en/index.ts', 'src/i18n/ops.ts', 'src/i18n/worker.ts'].map((file) => join(ROOT, file));
const DECLARING = new Set([...EN_AREAS, ...COMPOSITIONS]);
const ZH = join(ROOT, 'src/i18n/zh');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name))
    .map((name) => join(ROOT, dir, name));
}

/**
 * The dotted path of a property declared in an English dictionary ("security.methods.code"), from its
 * declaration: the properties up to the area's variable, which is the section (`export const security`).
 */
function pathOf(declaration: ts.Node): string | null {
  const parts: string[] = [];
  let node: ts.Node | undefined = declaration;
  for (; node && !ts.isVariableDeclaration(node); node = node.parent) {
    if (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) parts.unshift(node.name.getText());
  }
  if (node && ts.isVariableDeclaration(node) && EN_AREAS.includes(node.getSourceFile().fileName)) parts.unshift(node.name.getText());
  return parts.length ? parts.join('.').replaceAll(/['"]/g, '') : null;
}

/** Every message of the English dictionaries, as dotted paths: the properties whose value is words. */
function messageKeys(program: ts.Program): string[] {
  const keys: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isStringLiteralLike(node.initializer)) keys.push(pathOf(node)!);
    ts.forEachChild(node, visit);
  };
  for (const file of EN_AREAS) visit(program.getSourceFile(file)!);
  return keys;
}

function unreadMessages(): { keys: number; unread: string[] } {
  const sources = [...filesUnder('src', /\.tsx?$/), ...filesUnder('functions', /\.ts$/)].filter((file) => !DECLARING.has(file) && !file.startsWith(ZH));
  // Our files and React's types only (noResolve: no other package is read; no DOM lib), so a component's
  // declared props are known and the program stays small.
  const react = ['index.d.ts', 'jsx-runtime.d.ts'].map((file) => join(ROOT, 'node_modules/@types/react', file));
  const options = { jsx: ts.JsxEmit.ReactJSX, strict: true, noEmit: true, noResolve: true, skipLibCheck: true, types: [], lib: ['lib.es2023.d.ts'] };
  const program = ts.createProgram([...DECLARING, ...react, ...sources], options);
  const checker = program.getTypeChecker();
  const read = new Set<string>();
  // Everything under these paths is read (a table indexed by data).
  const prefixes = new Set<string>();

  const messagePaths = (symbol: ts.Symbol | undefined) =>
    (symbol?.declarations ?? []).filter((d) => DECLARING.has(d.getSourceFile().fileName)).map(pathOf).filter((p): p is string => p !== null);
  const markSymbol = (symbol: ts.Symbol | undefined) => messagePaths(symbol).forEach((path) => read.add(path));
  /** The message table an expression is (`m.methods`), when it is one: its path. */
  const tablePaths = (expression: ts.Expression) =>
    checker
      .getTypeAtLocation(expression)
      .getProperties()
      .flatMap((property) => messagePaths(property))
      .map((path) => path.slice(0, path.lastIndexOf('.') + 1));
  const markTable = (expression: ts.Expression) => {
    const paths = tablePaths(expression);
    // A table at the top (the whole dictionary) read by data would hide every key: only named tables count.
    paths.filter((path) => path !== '').forEach((path) => prefixes.add(path));
  };

  /**
   * A table handed to a component or function that declares its own shape (`labels: { title: string }`): the
   * reads there are of that shape, not of the messages, so the keys the shape names count as read.
   */
  const markHandedOn = (table: ts.Expression) => {
    // A spread (`{ ...m.slider, networkError }`) takes the shape of the object it is spread into.
    const handedTo = ts.isSpreadAssignment(table.parent) ? table.parent.parent : table;
    const receiver = ts.isExpression(handedTo) ? checker.getContextualType(handedTo) : undefined;
    if (!receiver || receiver.getProperties().some((property) => messagePaths(property).length)) return;
    const [path] = tablePaths(table);
    if (path !== undefined) receiver.getProperties().forEach((property) => read.add(`${path}${property.name}`));
  };
  const isHandedOn = (node: ts.Node) =>
    (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) &&
    (ts.isJsxExpression(node.parent) || ts.isSpreadAssignment(node.parent) || (ts.isCallExpression(node.parent) && node.parent.arguments.includes(node as ts.Expression)));

  const visit = (node: ts.Node) => {
    if (isHandedOn(node)) markHandedOn(node as ts.Expression);
    if (ts.isPropertyAccessExpression(node)) markSymbol(checker.getSymbolAtLocation(node.name));
    else if (ts.isElementAccessExpression(node)) {
      if (ts.isStringLiteralLike(node.argumentExpression)) markSymbol(checker.getSymbolAtLocation(node.argumentExpression));
      else markTable(node.expression);
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = node.propertyName ?? node.name;
      if (ts.isIdentifier(name)) markSymbol(checker.getTypeAtLocation(node.parent).getProperty(name.text));
    } else if (ts.isCallExpression(node) && /^Object\.(entries|values|keys)$/.test(node.expression.getText())) {
      const [table] = node.arguments;
      if (table) markTable(table);
    } else if (ts.isStringLiteralLike(node) && /^[a-zA-Z]+(\.[\w/]+)+$/.test(node.text)) read.add(node.text);
    else if (ts.isTemplateExpression(node) && /^[a-zA-Z]+(\.\w+)*\.$/.test(node.head.text)) prefixes.add(node.head.text);
    ts.forEachChild(node, visit);
  };
  for (const file of sources) visit(program.getSourceFile(file)!);

  for (const file of filesUnder('src', /\.astro$/)) {
    // A chain of two names or more that ends at a table hands the whole table on; one indexed by data, too.
    for (const [, chain, indexed] of readFileSync(file, 'utf8').matchAll(/\bm\.([\w.]*\w)(\[)?/g)) {
      read.add(chain!);
      if (indexed || chain!.includes('.')) prefixes.add(`${chain}.`);
    }
  }
  const keys = messageKeys(program);
  return { keys: keys.length, unread: keys.filter((path) => !read.has(path) && ![...prefixes].some((prefix) => path.startsWith(prefix))) };
}

const { keys, unread } = unreadMessages();
if (unread.length) {
  console.error(`unread-messages: ${unread.length} message(s) no code reads (scripts/unread-messages.ts says what counts as read):`);
  for (const path of unread) console.error(`  ${path}`);
  process.exit(1);
}
console.log(`unread-messages: all ${keys} messages are read`);
