// fast-check arbitraries of hostile input: wrong types, huge strings, deep nesting, unicode, bad amounts, duplicate keys.
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Printable ASCII: what a header value may carry (a Request refuses CR, LF and non-Latin-1 outright). */
const headerChar = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
export const headerValue = fc.string({ unit: headerChar, maxLength: 200 });

const HUGE = 200_000;

/** A value of the wrong type or shape for any field. */
export const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '١٢٣٤٥٦٧٨٩٠١',
    '１２３４５６７８９０１',
    '1e3',
    '-0',
    'null',
    '__proto__',
  ),
  fc.constant('9'.repeat(HUGE)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
  fc.constantFrom(0.1, -0.01, 1e308, -1e308, 2 ** 53, -(2 ** 53), 5e-324),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

/** Money that breaks the rules: floats, negatives, strings, unsafe integers, other currencies. */
export const badMoney: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ amount: fc.double({ noNaN: true, noDefaultInfinity: true }), currency: fc.constant('BRL') }),
  fc.record({ amount: fc.integer({ min: -1_000_000_000, max: -1 }), currency: fc.constant('BRL') }),
  fc.record({ amount: fc.constantFrom(2 ** 53, 1e21, -(2 ** 60)), currency: fc.constant('BRL') }),
  fc.record({ amount: fc.constantFrom('100', '1.234,56', '0x10'), currency: fc.constant('BRL') }),
  fc.record({
    amount: fc.integer({ min: 1, max: 10_000 }),
    currency: fc.constantFrom('USD', 'brl', '', 'R$'),
  }),
  wrongValue,
);

/** A path to a place inside `base` (object keys and array indexes), chosen at random. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries: [string | number, Json][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
}

function setAt(base: Json, path: (string | number)[], replacement: Json | undefined): Json {
  if (path.length === 0) return replacement ?? null;
  const copy = structuredClone(base) as Record<string | number, Json>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return copy;
}

/** `base` with one field replaced by a wrong value (or by bad money where it holds an amount), or removed. */
export function mutated(base: Json): fc.Arbitrary<Json> {
  const paths = pathsOf(base).filter((path) => path.length > 0);
  return fc
    .tuple(fc.constantFrom(...paths), fc.oneof(wrongValue, badMoney, fc.constant(undefined)))
    .map(([path, replacement]) => setAt(base, path, replacement));
}

/** Raw JSON text: mutated bodies, any JSON, deep nesting, duplicate keys, huge strings, truncations, not JSON. */
export function hostileBody(base: Json): fc.Arbitrary<string> {
  const text = JSON.stringify(base);
  const keys = base !== null && typeof base === 'object' && !Array.isArray(base) ? Object.keys(base) : ['x'];
  return fc.oneof(
    { weight: 5, arbitrary: mutated(base).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), fc.integer({ min: 100, max: 50_000 }))
        .map(
          ([key, depth]) =>
            `{${JSON.stringify(key)}:${'['.repeat(depth)}${']'.repeat(depth)},${text.slice(1)}`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100, max: 20_000 })
        .map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), wrongValue)
        .map(([key, value]) => `{${JSON.stringify(key)}:${JSON.stringify(value)},${text.slice(1)}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...keys)
        .map((key) => JSON.stringify({ ...(base as object), [key]: 'x'.repeat(HUGE) })),
    },
    { weight: 1, arbitrary: fc.nat(text.length - 1).map((cut) => text.slice(0, cut)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'null', '[]', '"text"', '1e999', '{"__proto__":{"admin":true}}'),
    },
  );
}

/** Query parameters: the endpoint's own names and strangers, each with an odd value, some repeated. */
export function hostileQuery(names: readonly string[], valid: Record<string, string>): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom('', '-1', '0', '1.5', '1e3', '999999999999999999999', 'NaN', '201', 'x'.repeat(5_000)),
    fc.constantFrom(...Object.values(valid), 'valid'),
  );
  const pair = fc.tuple(fc.constantFrom(...names, 'page', 'pageSize', 'unexpected', ''), value);
  return fc.tuple(fc.boolean(), fc.array(pair, { maxLength: 6 })).map(([keepValid, pairs]) => {
    const params = new URLSearchParams(keepValid ? valid : {});
    for (const [name, v] of pairs) params.append(name, v);
    return params.toString();
  });
}
