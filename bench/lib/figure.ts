// What every bench figure returns: rows of a table, each with the command that reproduces it.

/** One printed measurement. `ratio` is ours over the baseline, oriented so the goal reads plainly. */
export interface Row {
  figure: string;
  measured: string;
  baseline?: string;
  ratio?: string;
  goal?: string;
  /** `ok`, `below goal`, or empty when the figure has no goal. */
  verdict?: string;
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
