// Narrow roots (issue 25 §4, issue 38 §3): no root or shared subpath name is a value exported type-only (TS1362), roots stay
// under their ceilings, server-kit's root holds no rule, and no root reaches the build-only OpenAPI builder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const roots = {
  '@fin/core': 'packages/core/src/index.ts',
  '@fin/authorization-client': 'packages/authorization-client/src/index.ts',
  '@fin/pos-client': 'packages/pos-client/src/index.ts',
  '@fin/pos-check': 'packages/pos-check/src/index.ts',
  '@fin/server-kit': 'packages/server-kit/src/index.ts',
  '@fin/server-kit/rules': 'packages/server-kit/src/rules/index.ts',
  '@fin/server-kit/store': 'packages/server-kit/src/ports/index.ts',
  '@fin/core/errors': 'packages/core/src/errors/index.ts',
  '@fin/core/schemas': 'packages/core/src/schemas/index.ts',
  '@fin/core/webhooks': 'packages/core/src/webhooks/index.ts',
};
const pathOf = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));

const program = ts.createProgram(Object.values(roots).map(pathOf), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** The names a root exports, each with whether it is a value. */
function exportsOf(file: string) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(pathOf(file))!)!;
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return {
      name: symbol.name,
      value: (target.flags & ts.SymbolFlags.Value) !== 0,
    };
  });
}

/**
 * The diagnostics of a file that imports every name `file` exports and uses each one that has a value
 * as a value: what a user meets who takes the root's autocompletion at its word.
 */
function useEveryValue(file: string): string[] {
  const values = exportsOf(file)
    .filter((name) => name.value)
    .map((name) => name.name);
  const probe = join(mkdtempSync(join(tmpdir(), 'fin-roots-')), 'probe.ts');
  writeFileSync(
    probe,
    `import { ${values.join(', ')} } from '${pathOf(file)}';\nvoid [${values.join(', ')}];\n`,
  );
  const used = ts.createProgram([probe], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(used, used.getSourceFile(probe))
    .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('the package roots', () => {
  it.each(Object.entries(roots))(
    '%s: every name that autocompletes as a value works as one (no TS1362)',
    (_, file) => {
      expect(useEveryValue(file)).toEqual([]);
    },
  );

  it("@fin/core's root names the schema types; the schemas themselves are values of `schemas`", () => {
    const names = new Map(exportsOf(roots['@fin/core']).map((name) => [name.name, name]));
    expect(names.get('AuthorizeRequest')).toMatchObject({ value: false });
    expect(names.get('AuthorizationState')).toMatchObject({ value: false });
    expect(names.has('authorizeRequest')).toBe(false);
    expect(names.get('schemas')).toMatchObject({ value: true });
  });

  it("@fin/server-kit's root holds the service, adapters, stores and ports; the rules are @fin/server-kit/rules", () => {
    const root = exportsOf(roots['@fin/server-kit']).map((name) => name.name);
    const rules = exportsOf(roots['@fin/server-kit/rules']).map((name) => name.name);
    for (const name of ['createFinancingService', 'memoryStore', 'toNodeHandler', 'fromRequest', 'Store'])
      expect(root).toContain(name);
    for (const name of ['checkCartTotals', 'checkImeiNotFinanced', 'checkProposalReuse', 'buildContract']) {
      expect(rules).toContain(name);
      expect(root).not.toContain(name);
    }
    expect(root.filter((name) => /^check[A-Z]/.test(name))).toEqual([]);
  });

  /**
   * Roots that hold what users call (issue 38 §3). Ceilings: the names each root has now, so a root only
   * shrinks; the aims are `@fin/core` and `@fin/server-kit` <= 90, each client <= 45. What users of a root
   * never name moved to subpaths: `@fin/core/schemas`, `/errors`, `/webhooks`, `/transport`, `@fin/server-kit/store`.
   */
  const ceilings = {
    '@fin/core': 88,
    '@fin/server-kit': 77,
    '@fin/authorization-client': 44,
    '@fin/pos-client': 44,
  } as const;
  it.each(Object.entries(ceilings))('%s: its root has at most %i names', (root, ceiling) => {
    expect(exportsOf(roots[root as keyof typeof ceilings]).length).toBeLessThanOrEqual(ceiling);
  });

  it('no root re-exports a whole module: names are listed (namespaces such as `money` or `schemas` aside)', () => {
    for (const root of Object.keys(ceilings) as (keyof typeof ceilings)[]) {
      const text = readFileSync(pathOf(roots[root]), 'utf8');
      expect(text.match(/^export (type )?\*(?! as )/gm) ?? [], root).toEqual([]);
    }
  });

  it("@fin/core's webhook schemas are values of `schemas`; the event types and verifyWebhook stay at the root", () => {
    const names = new Map(exportsOf(roots['@fin/core']).map((name) => [name.name, name]));
    for (const schema of ['contractCreatedEvent', 'knownWebhookEvent', 'webhookEnvelope', 'contractSource'])
      expect(names.has(schema)).toBe(false);
    expect(names.get('ContractCreatedEvent')).toMatchObject({ value: false });
    expect(names.get('verifyWebhook')).toMatchObject({ value: true });
  });

  it("no root reaches @fin/core/openapi: the OpenAPI builder is build-only, never in what a user's code loads", () => {
    const reached = program.getSourceFiles().map((source) => source.fileName);
    expect(reached.filter((name) => name.includes('/packages/core/src/openapi/'))).toEqual([]);
  });

  it('createNodeWebhookHandler is @fin/authorization-client/node, off the root (DESIGN 29)', () => {
    const root = exportsOf(roots['@fin/authorization-client']).map((name) => name.name);
    expect(root).not.toContain('createNodeWebhookHandler');
    expect(root).toContain('createWebhookHandler');
    const node = readFileSync(pathOf('packages/authorization-client/src/node/index.ts'), 'utf8');
    expect(node).toMatch(/export \{ createNodeWebhookHandler \}/);
  });
});
