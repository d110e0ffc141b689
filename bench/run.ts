// `pnpm bench [server|client|client-parts|sync|footprint|soak|tracing|object-shapes ...] [--quick]`: runs the figures and prints one table.
import { type Figure, loadHeader, loadNow, type Row } from './lib/figure.js';
import { formatTable } from './lib/table.js';

/** Loaded on demand, so one figure whose package is broken does not stop the others. */
const figures: readonly { name: string; load: () => Promise<Figure> }[] = [
  { name: 'server', load: async () => (await import('./figures/server.js')).server },
  { name: 'client', load: async () => (await import('./figures/client.js')).client },
  { name: 'client-parts', load: async () => (await import('./figures/client-parts.js')).clientParts },
  { name: 'sync', load: async () => (await import('./figures/sync.js')).sync },
  { name: 'footprint', load: async () => (await import('./figures/footprint.js')).footprint },
  { name: 'soak', load: async () => (await import('./figures/soak.js')).soak },
  { name: 'tracing', load: async () => (await import('./figures/tracing.js')).tracing },
  { name: 'object-shapes', load: async () => (await import('./figures/object-shapes.js')).objectShapes },
];
/** `soak` (the long variant of the reliability suite's soak test), `client-parts` and `object-shapes` (diagnoses) run only when named. */
const byDefault = new Set(['server', 'client', 'sync', 'footprint', 'tracing']);

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(`pnpm bench [${figures.map((f) => f.name).join('|')} ...] [--quick]`);
  process.exit(0);
}
// The figures describe what users install: @fin/* resolve to the built dist (bench/tsconfig.json), never to src.
const loaded = import.meta.resolve('@fin/core');
if (!loaded.includes('/packages/core/dist/')) {
  console.error(
    `@fin/core resolves to ${loaded}, not the build: run pnpm bench (tsx --tsconfig bench/tsconfig.json)`,
  );
  process.exit(2);
}
const quick = args.includes('--quick');
const names = args.filter((arg) => !arg.startsWith('--'));
const unknown = names.filter((name) => !figures.some((figure) => figure.name === name));
if (unknown.length > 0) {
  console.error(`unknown figure ${unknown.join(', ')}; choose from ${figures.map((f) => f.name).join(', ')}`);
  process.exit(2);
}
const chosen = figures.filter((figure) =>
  names.length > 0 ? names.includes(figure.name) : byDefault.has(figure.name),
);

const rows: Row[] = [];
let failed = false;
for (const { name, load } of chosen) {
  try {
    const figure = await load();
    console.log(`\n# ${figure.title}${quick ? ' (quick)' : ''}\n\n${loadHeader()} at the start`);
    // A figure that samples no load of its own gets the load at its end.
    const figureRows = (await figure.run({ quick })).map((row) => ({ ...row, load: row.load ?? loadNow() }));
    console.log(`${loadHeader()} at the end\n`);
    console.log(formatTable(figureRows));
    rows.push(...figureRows);
  } catch (error) {
    failed = true;
    console.error(`${name} failed:`, error);
    rows.push({ figure: name, measured: 'failed (see above)', command: `pnpm bench ${name}` });
  }
}
console.log(
  `\n# Summary (${new Date().toISOString()}, node ${process.version}, @fin/core from ${loaded})\n\n${loadHeader()}\n`,
);
console.log(formatTable(rows));
// Issue 27's goal table, its rows named as there, each from this run (ours and its baseline side by side).
const goals = rows.filter((row) => row.goalRow !== undefined);
if (goals.length > 0) {
  console.log(`\n# Goals (issues 27 and 38)\n\n${loadHeader()}\n`);
  console.log(formatTable(goals.map((row) => ({ ...row, figure: row.goalRow ?? row.figure }))));
}
process.exitCode = failed ? 1 : 0;
