// Layers (issue 38 §1): no file cycle in packages/*/src, and no two folders of @fin/server-kit importing each other.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packagesRoot = fileURLToPath(new URL('../../packages', import.meta.url));
const RELATIVE_IMPORT =
  /(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every source file of packages/*\/src and the files it imports (type imports and re-exports included). */
function importGraph(): Map<string, Set<string>> {
  const files = new Set(
    readdirSync(packagesRoot).flatMap((name) => {
      const src = join(packagesRoot, name, 'src');
      return statSync(src, { throwIfNoEntry: false })?.isDirectory() ? sourceFiles(src) : [];
    }),
  );
  const target = (from: string, specifier: string) => {
    const base = resolve(dirname(from), specifier);
    return [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')].find((path) =>
      files.has(path),
    );
  };
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const imports = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const found = target(file, (match[1] ?? match[2])!);
      if (found) imports.add(found);
    }
    graph.set(file, imports);
  }
  return graph;
}

/** The files that take part in a cycle, each cycle once (Tarjan's strongly connected components). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, low.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1) found.push(component.map((path) => relative(packagesRoot, path)));
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

describe('layers', () => {
  const graph = importGraph();

  it('no file cycle in packages/*/src', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
  });

  it('no two folders of @fin/server-kit import each other (files at src/ belong to no folder)', () => {
    const src = join(packagesRoot, 'server-kit', 'src');
    const folderOf = (file: string) => {
      const parts = relative(src, file).split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const edges = new Set<string>();
    for (const [file, imports] of graph) {
      const from = file.startsWith(src) ? folderOf(file) : undefined;
      for (const imported of imports) {
        const to = imported.startsWith(src) ? folderOf(imported) : undefined;
        if (from && to && from !== to) edges.add(`${from} -> ${to}`);
      }
    }
    const mutual = [...edges].filter((edge) => {
      const [from, to] = edge.split(' -> ');
      return from! < to! && edges.has(`${to} -> ${from}`);
    });
    expect(mutual).toEqual([]);
  });
});
