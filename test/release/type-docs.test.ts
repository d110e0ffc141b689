// Issue 36 §5: the published .d.ts reads like documentation: every contract field's TSDoc, open values that autocomplete.
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repositoryRoot } from './packed-install.js';

beforeAll(ensureBuilt, 600_000);

const distOf = (pkg: string) => join(repositoryRoot, 'packages', pkg, 'dist');
const coreTypes = () => join(distOf('core'), 'index.d.ts');

/** A program over `files` as a consumer's strict NodeNext project sees them. */
const programOf = (files: string[], host?: ts.CompilerHost) =>
  ts.createProgram(
    files,
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
    },
    host,
  );

/** Whether a declaration is ours (a published .d.ts), not TypeScript's lib or a dependency's. */
const isOurs = (declaration: ts.Declaration) => {
  const file = declaration.getSourceFile().fileName;
  return file.includes('/packages/') && file.includes('/dist/') && !file.includes('/node_modules/');
};

/** `z.infer<typeof x>`, `z.input<...>`, `z.output<...>`: a type that comes from a schema. */
const isSchemaType = (declaration: ts.Declaration) =>
  ts.isTypeAliasDeclaration(declaration) &&
  ts.isTypeReferenceNode(declaration.type) &&
  /^\w+\.(infer|input|output)$/.test(declaration.type.typeName.getText());

interface FieldReport {
  total: number;
  undocumented: string[];
}

/** Every field reachable from `type` (through unions, arrays, nested objects), each with or without its TSDoc. */
function walkFields(
  checker: ts.TypeChecker,
  type: ts.Type,
  path: string,
  report: FieldReport,
  seen: Set<ts.Type>,
) {
  const members = type.isUnion() ? type.types : [type];
  for (const member of members) {
    if (checker.isArrayType(member) || checker.isTupleType(member)) {
      for (const element of checker.getTypeArguments(member as ts.TypeReference))
        walkFields(checker, element, `${path}[]`, report, seen);
      continue;
    }
    if (seen.has(member)) continue;
    seen.add(member);
    for (const field of checker.getPropertiesOfType(member)) {
      if (!field.declarations?.some(isOurs)) continue;
      report.total += 1;
      const doc = ts.displayPartsToString(field.getDocumentationComment(checker)).trim();
      if (doc === '') report.undocumented.push(`${path}.${field.name}`);
      walkFields(
        checker,
        checker.getNonNullableType(checker.getTypeOfSymbol(field)),
        `${path}.${field.name}`,
        report,
        seen,
      );
    }
  }
}

/** The fields of every schema type @fin/core's published root exports, and those without a TSDoc. */
function contractFields(): FieldReport {
  const program = programOf([coreTypes()]);
  const checker = program.getTypeChecker();
  const root = checker.getSymbolAtLocation(program.getSourceFile(coreTypes())!)!;
  const report: FieldReport = { total: 0, undocumented: [] };
  for (const exported of checker.getExportsOfModule(root)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!symbol.declarations?.some(isSchemaType)) continue;
    walkFields(checker, checker.getDeclaredTypeOfSymbol(symbol), exported.name, report, new Set());
  }
  return report;
}

/** A probe file beside the packages, importing @fin/core's published types by path. */
const probePath = join(repositoryRoot, 'test', 'release', 'type-docs-probe.ts');
const probeImport = `import type * as fin from '../../packages/core/dist/index.js';\n`;

/** A language service over one in-memory probe file, everything else from disk: what an editor asks. */
function editorOn(source: string) {
  const text = probeImport + source;
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => programOf([]).getCompilerOptions(),
    getScriptFileNames: () => [probePath],
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => {
      if (file === probePath) return ts.ScriptSnapshot.fromString(text);
      return ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file)!) : undefined;
    },
    getCurrentDirectory: () => repositoryRoot,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (file) => file === probePath || ts.sys.fileExists(file),
    readFile: (file) => (file === probePath ? text : ts.sys.readFile(file)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host);
  return {
    /** The completions an editor offers inside the string literal that holds `marker`. */
    completionsAt(marker: string) {
      const at = text.indexOf(marker);
      return (service.getCompletionsAtPosition(probePath, at, {})?.entries ?? []).map((entry) => entry.name);
    },
    errors: () =>
      service
        .getSemanticDiagnostics(probePath)
        .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
  };
}

describe('the published .d.ts reads like documentation (issue 36 §5)', () => {
  it('every field of every request and response type of @fin/core has a TSDoc an editor shows on hover', () => {
    const report = contractFields();
    expect(report.total).toBeGreaterThan(200);
    expect(report.undocumented).toEqual([]);
  });

  it('an open field offers the spec values and takes any other string; what our server sends stays precise', () => {
    const editor = editorOn(
      [
        `const product: fin.Product['productType'] = 'PRODUCT_MARK';`,
        `const service: fin.CartService['type'] = 'SERVICE_MARK';`,
        `const reason: fin.CancelRequest['reason'] = 'REASON_MARK';`,
        `const role: fin.schemas.SellerSessionFlat['role'] = 'ROLE_MARK';`,
        `const newer: fin.Product['productType'] = 'TABLET';`,
        `const code: fin.schemas.ErrorObject['code'] = 'a_code_of_a_newer_server';`,
        `// @ts-expect-error: the service sends only the four statuses`,
        `const status: fin.AuthorizationState['status'] = 'TABLET';`,
        `void [product, service, reason, role, newer, code, status];`,
      ].join('\n'),
    );
    expect(editor.errors()).toEqual([]);
    expect(editor.completionsAt('PRODUCT_MARK')).toEqual(
      expect.arrayContaining(['SMARTPHONE', 'ACCESSORY', 'CASE', 'SCREEN_PROTECTOR']),
    );
    expect(editor.completionsAt('SERVICE_MARK')).toEqual(
      expect.arrayContaining(['EXTENDED_WARRANTY', 'INSURANCE', 'PROTECTION']),
    );
    expect(editor.completionsAt('REASON_MARK')).toEqual(expect.arrayContaining(['EXCHANGE', 'OTHER']));
    expect(editor.completionsAt('ROLE_MARK')).toEqual(
      expect.arrayContaining(['SELLER', 'SUPERVISOR', 'MANAGER']),
    );
  });
});
