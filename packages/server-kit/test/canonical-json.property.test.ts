// DESIGN 9: the fast RFC 8785 serializer behind the idempotency fingerprint answers what `canonicalize` answers.
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/idempotency/canonical-json.js';

/** Any JSON text's parse: full unicode (lone surrogates too), awkward keys, numbers of every spelling. */
const parsedJson = fc
  .jsonValue({
    maxDepth: 4,
    stringUnit: 'binary',
  })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('canonical JSON of the idempotency fingerprint (DESIGN 9, RFC 8785)', () => {
  it('equals canonicalize on every parsed JSON value, so stored fingerprints keep matching', () => {
    fc.assert(
      fc.property(parsedJson, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals canonicalize on the cases JCS is about: key order, escapes, numbers, __proto__', () => {
    const texts = [
      '{"b":1,"a":{"d":[1,2.50,-0,1e21,1e-7],"c":"\\u0000\\"\\\\\\ud800\u20ac"},"\u00e9":true,"e\u0301":null}',
      '{"__proto__":{"x":1},"toJSON":5,"":[]}',
      '{"10":1,"9":2,"a":3,"A":4,"\ud83d\ude00":5,"\ufb33":6}',
    ];
    for (const text of texts) {
      const value = JSON.parse(text) as unknown;
      expect(canonicalJson(value)).toBe(canonicalize(value));
    }
  });

  it('leaves what JSON.parse never makes to canonicalize, errors included', () => {
    const at = new Date(0);
    expect(canonicalJson({ at, list: [undefined, 1], skip: undefined })).toBe(
      canonicalize({ at, list: [undefined, 1], skip: undefined }),
    );
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow();
  });
});
