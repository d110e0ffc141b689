// The function-length rule (issue 25 §5): a function's own lines, nested function bodies excluded, at most 80 in packages/*/src.
import { describe, expect, it } from 'vitest';
import { longFunctions, MAX_OWN_LINES, ownLinesOf } from '../../scripts/function-length.js';

const lines = (count: number, text: string) => Array.from({ length: count }, () => text).join('\n');
const measure = (source: string) =>
  Object.fromEntries(ownLinesOf('probe.ts', source).map((fn) => [fn.name, fn.ownLines]));

describe('own lines of a function', () => {
  it('counts every line of its span, comments and blank lines included', () => {
    const source = `function long() {\n${lines(40, '  call();')}\n  // why\n\n${lines(40, '  call();')}\n}`;
    expect(measure(source)).toEqual({ long: 84 });
    expect(ownLinesOf('probe.ts', source)[0]!.ownLines).toBeGreaterThan(MAX_OWN_LINES);
  });

  it('leaves out the bodies of nested functions, which count for themselves', () => {
    const source = [
      'function outer() {',
      '  const inner = () => {',
      lines(50, '    call();'),
      '  };',
      '  items.forEach(function each(item) {',
      lines(30, '    call(item);'),
      '  });',
      '  return inner;',
      '}',
    ].join('\n');
    // outer: its first line, `const inner = () => {`, `items.forEach(...`, `return inner;`, its last line.
    expect(measure(source)).toEqual({ outer: 5, inner: 52, each: 32 });
  });

  it('a factory returning short methods is as long as its own code, not the sum of its methods', () => {
    const methods = Array.from({ length: 40 }, (_, i) => `    m${i}() {\n      return ${i};\n    },`).join(
      '\n',
    );
    const measured = measure(`function factory() {\n  const state = 1;\n  return {\n${methods}\n  };\n}`);
    expect(measured.factory).toBe(5);
    expect(measured.m0).toBe(3);
  });
});

it(`no function in packages/*/src has more than ${MAX_OWN_LINES} lines of its own (outside the allowlist)`, () => {
  expect(longFunctions()).toEqual([]);
});
