// npm pack/publish lifecycle of a workspace package: `prepack` writes released ranges for its `workspace:` ones, `postpack` restores the manifest.
// Plain Node (no tsx, no pnpm): npm runs it, in the package's folder, on a newcomer's machine too.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packagesFolder = fileURLToPath(new URL('../packages', import.meta.url));
const MANIFEST = 'package.json';
/** The manifest as committed, while the packed one is on disk (never in a tarball: `files` leaves it out). */
const KEPT = 'package.json.workspace';
/** Where the packed manifest is written before it replaces the committed one in one rename. */
const PACKING = 'package.json.packing';
const FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies'];

/** Every workspace package's version, by name. */
function workspaceVersions() {
  const versions = new Map();
  for (const folder of readdirSync(packagesFolder)) {
    const path = join(packagesFolder, folder, MANIFEST);
    if (!existsSync(path)) continue;
    const { name, version } = JSON.parse(readFileSync(path, 'utf8'));
    versions.set(name, version);
  }
  return versions;
}

/** `workspace:^` -> `^1.2.3`, `workspace:~` -> `~1.2.3`, `workspace:*` -> `1.2.3`, `workspace:^1.0.0` -> `^1.0.0` (as pnpm packs them). */
export function releasedRange(name, range, versions) {
  const spec = range.slice('workspace:'.length);
  const version = versions.get(name);
  if (version === undefined) throw new Error(`${name}: ${range} names no package of the workspace`);
  if (spec === '*') return version;
  if (spec === '^' || spec === '~') return `${spec}${version}`;
  return spec;
}

function prepack() {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST); // a pack that stopped before its postpack
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  const versions = workspaceVersions();
  let changed = false;
  for (const field of FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (!range.startsWith('workspace:')) continue;
      manifest[field][name] = releasedRange(name, range, versions);
      changed = true;
    }
  }
  if (!changed) return;
  writeFileSync(KEPT, text);
  // A rename, not a rewrite in place: `pnpm -r pack` runs the packages' prepacks side by side, and each reads the
  // others' manifests (workspaceVersions), which must never be seen empty or half written.
  writeFileSync(PACKING, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(PACKING, MANIFEST);
}

function postpack() {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
}

const step = process.argv[2];
if (step === 'prepack') prepack();
else if (step === 'postpack') postpack();
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stderr.write('usage: node scripts/pack-manifest.mjs prepack|postpack\n');
  process.exit(2);
}
