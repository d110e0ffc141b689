// `pnpm lint:functions`: no function in packages/*/src longer than 80 lines of its own (nested function bodies excluded).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_OWN_LINES = 80;

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Files whose length is data, not code: the store conformance suite (one `describe` per contract) and word lists. */
const EXCLUDED = [
  'packages/server-kit/src/testing/store-conformance.ts',
  'packages/pos-client/src/testing/data/vocabulary.ts',
];

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  ownLines: number;
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** The name a reader finds the function by: its own, or that of the variable, property or call holding it. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source)}(callback)`;
  return '(anonymous)';
}

/** Punctuation that closes a nested function's line (`},` `});`): it does not make the line the outer one's. */
const CLOSING = new Set([
  ts.SyntaxKind.CommaToken,
  ts.SyntaxKind.SemicolonToken,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.CloseBracketToken,
]);

/**
 * Each function's own lines: every line of its span, comments and blank lines included, but those of the
 * functions nested in it (a line holding its own code beside a nested function still counts). So a
 * factory returning short methods is as long as its own code, not the sum of its methods.
 */
export function ownLinesOf(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const spanOf = (node: ts.Node) => [lineOf(node.getStart(source)), lineOf(node.getEnd())] as const;
  /** Per function: the lines of its own tokens, and the functions directly nested in it. */
  const functions = new Map<ts.FunctionLikeDeclaration, { tokens: Set<number>; nested: ts.Node[] }>();
  const visit = (node: ts.Node, owner: ts.FunctionLikeDeclaration | undefined): void => {
    let current = owner;
    if (isFunction(node)) {
      if (owner) functions.get(owner)!.nested.push(node);
      functions.set(node, { tokens: new Set(), nested: [] });
      current = node;
    }
    const children = node.getChildren(source);
    if (children.length === 0 && current && !CLOSING.has(node.kind)) {
      functions.get(current)!.tokens.add(lineOf(node.getStart(source)));
    }
    for (const child of children) visit(child, current);
  };
  visit(source, undefined);
  return [...functions].map(([node, { tokens, nested }]) => {
    const [first, last] = spanOf(node);
    const inNested = (line: number) =>
      nested.some((inner) => {
        const [from, to] = spanOf(inner);
        return line >= from && line <= to;
      });
    let ownLines = 0;
    for (let line = first; line <= last; line++) if (tokens.has(line) || !inNested(line)) ownLines++;
    return { file, name: nameOf(node, source), line: first + 1, ownLines };
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `path#name` entries of the allowlist file, `#` at a line's start is a comment. */
function allowlist(): Set<string> {
  const text = readFileSync(join(root, 'scripts/function-length.allow'), 'utf8');
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

export function longFunctions(): LongFunction[] {
  const packages = readdirSync(join(root, 'packages'));
  const files = packages
    .flatMap((name) => sourceFiles(join(root, 'packages', name, 'src')))
    .map((path) => relative(root, path))
    .filter((file) => !EXCLUDED.includes(file));
  const allowed = allowlist();
  return files
    .flatMap((file) => ownLinesOf(file, readFileSync(join(root, file), 'utf8')))
    .filter((fn) => fn.ownLines > MAX_OWN_LINES && !allowed.has(`${fn.file}#${fn.name}`));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const long = longFunctions();
  for (const fn of long) {
    console.error(
      `${fn.file}:${fn.line} ${fn.name}: ${fn.ownLines} lines of its own (at most ${MAX_OWN_LINES})`,
    );
  }
  if (long.length > 0) process.exit(1);
  console.log(
    `function length: every function in packages/*/src has at most ${MAX_OWN_LINES} lines of its own`,
  );
}
