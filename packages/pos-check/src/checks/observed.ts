// Helpers of the checks that read every answer of the run: the answers to read, a JSON walk, one problem per endpoint.
import type { Exchange } from '../probe.js';

/** Every answer of the run so far, the token endpoint's included or not. */
export const answers = (exchanges: readonly Exchange[], withToken: boolean) =>
  exchanges.filter((exchange) => withToken || exchange.operation !== 'issueToken');

/** Every object inside `value` with its path (`data.products.3.price`). */
export function* objectsIn(value: unknown, path = 'data'): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* objectsIn(item, `${path}.${index}`);
  } else if (typeof value === 'object' && value !== null) {
    yield [path, value as Record<string, unknown>];
    for (const [key, item] of Object.entries(value)) yield* objectsIn(item, `${path}.${key}`);
  }
}

/** Collects problems per endpoint and reports each once, with how many answers showed it and one example. */
export function perEndpoint() {
  const seen = new Map<string, { count: number; example: string }>();
  return {
    add(endpoint: string, example: string) {
      const entry = seen.get(endpoint);
      if (entry) entry.count += 1;
      else seen.set(endpoint, { count: 1, example });
    },
    report(write: (endpoint: string, summary: string) => void) {
      for (const [endpoint, { count, example }] of seen)
        write(endpoint, count > 1 ? `${example} (and ${count - 1} more answers)` : example);
    },
  };
}
