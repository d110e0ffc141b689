// Reads a V8 .cpuprofile (node --cpu-prof) into self time per function and per source file, built code mapped back to src/ by its source maps.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One place code runs, with the self time (microseconds) its samples add up to. */
export interface SelfTime {
  name: string;
  micros: number;
}

export interface ProfileSummary {
  /** Busy microseconds sampled in JavaScript, the VM and node's own code (idle and socket writes left out). */
  totalMicros: number;
  /**
   * Microseconds sampled in the native socket writes: kernel time, and on a busy machine also the time the
   * process lost its core to the reader it woke (samples follow the wall clock), so counted apart.
   */
  socketWriteMicros: number;
  byFunction: SelfTime[];
  /** Total time: each function's samples with everything it called (a recursive function counted once). */
  byFunctionTotal: SelfTime[];
  byFile: SelfTime[];
  /** Coarser: node internals, a package in node_modules, one of our packages' src folders. */
  byArea: SelfTime[];
}

/** Samples the VM takes while the thread waits: not CPU. */
const IDLE = new Set(['(idle)']);
/** Native bindings that hand bytes to the kernel (node's stream_base writes). */
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String']);

const maps = new Map<string, SourceMap | undefined>();

/** The source map of a built file (`dist/*.js` beside its `.js.map`), read once. */
function sourceMapOf(url: string): SourceMap | undefined {
  if (!maps.has(url)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** `packages/server-kit/src/http/body.ts` for our built code, the file's own place for anything else. */
function placeOf(frame: ProfileNode['callFrame']): { file: string; line: number } {
  const { url, lineNumber, columnNumber } = frame;
  if (url.startsWith('file://') && url.includes('/packages/') && url.includes('/dist/')) {
    const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber);
    if (entry && 'originalSource' in entry && entry.originalSource) {
      const source = new URL(entry.originalSource, url).pathname;
      return { file: source.slice(source.indexOf('/packages/') + 1), line: entry.originalLine + 1 };
    }
  }
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf('/node_modules/');
  const file = modules === -1 ? path : path.slice(modules + '/node_modules/'.length);
  return { file: file || '(vm)', line: lineNumber + 1 };
}

/** A function by its name and place: `readJson packages/server-kit/src/http/body.ts:34`. */
function functionKey(frame: ProfileNode['callFrame']): string {
  const { file, line } = placeOf(frame);
  return `${frame.functionName || '(anonymous)'} ${file}:${line}`;
}

/** `node:http` internals, a package (`zod`), or one of ours by folder (`server-kit/http`). */
function areaOf(file: string): string {
  if (file.startsWith('node:')) return file.split('/')[0]!;
  if (file === '(vm)') return '(V8: gc, program, builtins)';
  const ours = /^packages\/([^/]+)\/src\/([^/]+)\//.exec(file);
  if (ours) return `@fin/${ours[1]}: src/${ours[2]}`;
  const pnpm = /^\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pnpm) return pnpm[1]!;
  const pkg = /^((?:@[^/]+\/)?[^/]+)/.exec(file);
  return pkg?.[1] ?? file;
}

const sorted = (totals: Map<string, number>): SelfTime[] =>
  [...totals].map(([name, micros]) => ({ name, micros })).sort((a, b) => b.micros - a.micros);

const add = <K>(totals: Map<K, number>, key: K, micros: number) =>
  totals.set(key, (totals.get(key) ?? 0) + micros);

/** Self time of the samples taken `skipMicros` after the profile started (start-up and warm-up left out). */
export function summarize(path: string, skipMicros = 0): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfById = new Map<number, number>();
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta;
    if (elapsed >= skipMicros) add(selfById, id, delta);
  });
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byFunction = new Map<string, number>();
  const byFunctionTotal = new Map<string, number>();
  const byFile = new Map<string, number>();
  const byArea = new Map<string, number>();
  let totalMicros = 0;
  let socketWriteMicros = 0;
  for (const [id, micros] of selfById) {
    const frame = nodes.get(id)!.callFrame;
    if (IDLE.has(frame.functionName)) continue;
    if (frame.url === '' && SOCKET_WRITES.has(frame.functionName)) {
      socketWriteMicros += micros;
      continue;
    }
    totalMicros += micros;
    const { file } = placeOf(frame);
    add(byFunction, functionKey(frame), micros);
    const callers = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      callers.add(functionKey(nodes.get(at)!.callFrame));
    }
    for (const caller of callers) add(byFunctionTotal, caller, micros);
    add(byFile, file, micros);
    add(byArea, areaOf(file), micros);
  }
  return {
    totalMicros,
    socketWriteMicros,
    byFunction: sorted(byFunction),
    byFunctionTotal: sorted(byFunctionTotal),
    byFile: sorted(byFile),
    byArea: sorted(byArea),
  };
}
