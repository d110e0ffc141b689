// The object shapes of decision TR-5 timed on the running Node: a literal begun by a spread that then gains properties, against the shapes the hot paths use instead.
import { commandOf, type Figure, type FigureOptions, fixed, type Row } from '../lib/figure.js';

/** A fresh object per iteration, the size of a zod output or an options object. */
const fresh = (i: number) => ({
  authorized: true,
  authorizationId: `auth_${i}`,
  status: 'AUTHORIZED',
  at: i,
});
/** What the transport gives p-retry beside each call's own options (its `retryDefaults`). */
const RETRY_DEFAULTS = {
  minTimeout: 0,
  maxTimeout: 0,
  factor: 1,
  randomize: false,
  maxRetryTime: Number.POSITIVE_INFINITY,
  shouldConsumeRetry: fresh,
};

/** What p-retry 7 does with the options it is given: a copy, then each default it lacks added. */
function pRetryCopy(given: object): object {
  const options: Record<string, unknown> = { ...given };
  options.retries ??= 10;
  options.factor ??= 2;
  options.minTimeout ??= 1000;
  options.maxTimeout ??= Number.POSITIVE_INFINITY;
  options.maxRetryTime ??= Number.POSITIVE_INFINITY;
  options.randomize ??= false;
  options.shouldConsumeRetry ??= fresh;
  return options;
}

/** Each shape: the one TR-5 avoids, then what the hot paths build instead (the same keys; `fresh` names none of those added). */
const shapes: readonly { name: string; build: (i: number) => object }[] = [
  {
    name: 'spread first, 1 new key: { ...data, expiresAtDate }',
    build: (i) => ({ ...fresh(i), expiresAtDate: i }),
  },
  {
    name: 'instead: Object.assign(data, { expiresAtDate })',
    build: (i) => Object.assign(fresh(i), { expiresAtDate: i }),
  },
  {
    name: "p-retry given a call's own options (5 defaults added to its copy)",
    build: (i) => pRetryCopy({ retries: i & 3, minTimeout: 0, signal: undefined, shouldRetry: fresh }),
  },
  {
    name: 'instead: p-retry given every option it defaults',
    build: (i) => pRetryCopy({ retries: i & 3, signal: undefined, shouldRetry: fresh, ...RETRY_DEFAULTS }),
  },
  {
    name: 'spread first, 2 new keys: { ...headers, id, time }',
    build: (i) => ({ ...fresh(i), id: i, time: i }),
  },
  { name: 'instead: { id, time, ...headers }', build: (i) => ({ id: i, time: i, ...fresh(i) }) },
  {
    name: 'or: Object.assign({}, headers), then id and time set',
    build: (i) => {
      const headers: Record<string, unknown> = Object.assign({}, fresh(i));
      headers.id = i;
      headers.time = i;
      return headers;
    },
  },
];

/** Nanoseconds per build, the best of five rounds (each round long enough for the optimizing compiler). */
function nanosecondsPer(build: (i: number) => object, iterations: number): number {
  let best = Number.POSITIVE_INFINITY;
  let kept = 0;
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) kept += Object.keys(build(i)).length;
    best = Math.min(best, Number(process.hrtime.bigint() - started) / iterations);
  }
  if (kept === 0) throw new Error('no object built');
  return best;
}

async function run(options: FigureOptions): Promise<Row[]> {
  const iterations = options.quick ? 20_000 : 100_000;
  const command = commandOf('object-shapes', options);
  return shapes.map(({ name, build }) => ({
    figure: `${name} (node ${process.version})`,
    measured: `${fixed(nanosecondsPer(build, iterations), 0)} ns`,
    command,
  }));
}

export const objectShapes: Figure = {
  name: 'object-shapes',
  title:
    'Object shapes of decision TR-5: a spread-begun literal that gains keys vs what the hot paths build, on this Node',
  run,
};
