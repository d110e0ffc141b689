// Prints bench rows as one aligned text table (also valid Markdown, so it pastes into docs/performance.md).
import type { Row } from './figure.js';

const columns: { key: keyof Row; title: string }[] = [
  { key: 'figure', title: 'Figure' },
  { key: 'measured', title: 'Measured' },
  { key: 'baseline', title: 'Baseline' },
  { key: 'ratio', title: 'Ratio' },
  { key: 'load', title: 'Load (1 min)' },
  { key: 'goal', title: 'Goal' },
  { key: 'verdict', title: 'Verdict' },
  { key: 'command', title: 'Reproduce with' },
];

const escapePipes = (text: string) => text.replaceAll('|', '\\|');

export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((row) => columns.map(({ key }) => escapePipes(row[key] ?? '')));
  const widths = columns.map(({ title }, i) =>
    Math.max(title.length, ...cells.map((line) => line[i]!.length)),
  );
  const line = (values: readonly string[]) =>
    `| ${values.map((value, i) => value.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(columns.map(({ title }) => title)),
    line(widths.map((width) => '-'.repeat(width))),
    ...cells.map(line),
  ].join('\n');
}
