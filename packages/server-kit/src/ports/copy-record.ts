// copyRecord: the deep copy a store makes of the plain-data records it takes in and hands out (never shared).

/**
 * A deep copy of plain data (objects, arrays, primitives), as `structuredClone` would make it, at a
 * fraction of its cost: records are small trees of JSON values, and `structuredClone` serializes them
 * through V8's message format and back (5-7 µs for an authorization, against about 1 µs here). Any other
 * object met inside (a `Date`, a `Map`) is left to `structuredClone`, so the result is the same.
 */
export function copyRecord<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyValue(value[i]);
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    // An own `__proto__` (JSON.parse makes one) must stay a property, not become the prototype.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: copyValue(source[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      copy[key] = copyValue(source[key]);
    }
  }
  return copy;
}
