// SF-2 (issue 23): exceedsJsonDepth counts exactly the nesting JSON.parse would build, without recursing.
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '@fin/core/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** The nesting of a parsed value: 0 for a scalar, 1 + the deepest member for an array or object. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...members.map(depthOf));
}

describe('SF-2: the JSON nesting bound', () => {
  it('agrees with the depth of the parsed value for any JSON text, brackets inside strings included', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ') });
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 8, stringUnit: 'binary' }),
        fc.integer({ min: 0, max: 9 }),
        text,
        (value, max, noise) => {
          const wrapped = { noise, value };
          expect(exceedsJsonDepth(JSON.stringify(wrapped), max)).toBe(depthOf(wrapped) > max);
        },
      ),
      { numRuns: 500 },
    );
  });

  it(`refuses one level past ${MAX_JSON_DEPTH} by default and handles 1,000,000 levels without recursing`, () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(exceedsJsonDepth(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(deep(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth(deep(1_000_000))).toBe(true);
  });
});
