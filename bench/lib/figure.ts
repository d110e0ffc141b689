// What every bench figure returns: rows of a table, each with the command that reproduces it.
import { loadavg } from 'node:os';
import { pinningNote } from './pin.js';

/** One printed measurement. `ratio` is ours over the baseline, oriented so the goal reads plainly. */
export interface Row {
  figure: string;
  measured: string;
  baseline?: string;
  ratio?: string;
  goal?: string;
  /** `ok`, `below goal`, or empty when the figure has no goal. */
  verdict?: string;
  /** The machine's 1-minute load average while it was measured: on a shared machine, read no figure without it. */
  load?: string;
  /** The name of the row of issue 27's goal table this figure answers, printed again in the run's goal table. */
  goalRow?: string;
  command: string;
}

export interface FigureOptions {
  /** Shorter runs (seconds instead of a minute): numbers are noisier but the shape is the same. */
  quick: boolean;
}

export interface Figure {
  name: string;
  /** One line: what is measured against what. */
  title: string;
  run(options: FigureOptions): Promise<Row[]>;
}

/** The command a reader types to get this figure again. */
export const commandOf = (name: string, options: FigureOptions) =>
  `pnpm bench ${name}${options.quick ? ' --quick' : ''}`;

/** `ok` when `value` meets the goal in the given direction. */
export const verdict = (value: number, goal: number, direction: 'at-least' | 'at-most') =>
  (direction === 'at-least' ? value >= goal : value <= goal) ? 'ok' : 'below goal';

export const fixed = (value: number, digits = 2) => value.toFixed(digits);

/** The machine's load now, for a table's header: the 1, 5 and 15-minute load averages and how the cores are shared. */
export const loadHeader = () =>
  `load average (1, 5, 15 min): ${loadavg()
    .map((n) => fixed(n, 2))
    .join(', ')} on ${pinningNote()}`;

/** The 1-minute load average now, as printed beside a figure. */
export const loadNow = () => fixed(loadavg()[0] ?? Number.NaN, 1);

/** The mean of load averages sampled during a measurement. */
export const meanLoad = (samples: readonly number[]) =>
  fixed(samples.reduce((sum, n) => sum + n, 0) / samples.length, 1);

/**
 * Runs both sides of a round, the first one first on even rounds and second on odd ones (AB BA AB ...), so
 * neither always meets what the other left behind; answers their results as `[first, second]`.
 */
export async function inTurn<A, B>(round: number, first: () => Promise<A>, second: () => Promise<B>) {
  if (round % 2 === 0) return [await first(), await second()] as const;
  const later = await second();
  return [await first(), later] as const;
}
