// Packs the workspace packages the way a release does and installs the tarballs where a user would.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);

export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The published packages, by folder under packages/. */
export const publishedPackages = [
  'core',
  'authorization-client',
  'pos-client',
  'pos-check',
  'server-kit',
] as const;

/** pnpm at the version the repository pins, whether or not a global pnpm exists (CI has none). */
const pnpm = async (args: string[], cwd = repositoryRoot) => {
  const manifest = JSON.parse(await readFile(join(repositoryRoot, 'package.json'), 'utf8'));
  return run('npx', ['-y', manifest.packageManager, ...args], { cwd, maxBuffer: 32 * 1024 * 1024 });
};

/** Held while a test packs: a pack rewrites the package's manifest for a moment (scripts/pack-manifest.mjs). */
const packLock = join(repositoryRoot, 'node_modules', '.fin-pack-lock');

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Runs `work` while no other test process packs this workspace: test files run side by side, and two packs of
 * one package at once can leave its committed manifest rewritten. A lock left by a process that died is taken over.
 */
export async function whilePacking<T>(work: () => Promise<T>): Promise<T> {
  const owner = join(packLock, 'pid');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      await mkdir(packLock);
      await writeFile(owner, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(await readFile(owner, 'utf8').catch(() => '0'));
      if (pid > 0 && !isRunning(pid)) await rm(packLock, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`${packLock} held for 10 minutes (by pid ${pid || '?'})`);
      else await sleep(250);
    }
  }
  try {
    return await work();
  } finally {
    await rm(packLock, { recursive: true, force: true });
  }
}

/** The five packages packed by pnpm, as a release does, into `folder`. */
export function packWorkspace(folder: string): Promise<unknown> {
  return whilePacking(() => pnpm(['-r', '--filter', './packages/*', 'pack', '--pack-destination', folder]));
}

/** Builds the packages whose dist is missing, so the test also runs on its own after a fresh clone. */
export async function ensureBuilt(): Promise<void> {
  const missing = publishedPackages.filter(
    (name) => !existsSync(join(repositoryRoot, 'packages', name, 'dist', 'index.js')),
  );
  if (missing.length > 0)
    await pnpm(['-r', ...missing.flatMap((name) => ['--filter', `./packages/${name}`]), 'build']);
}

/** An optional peer of a package (`pg` of server-kit, `msw` of pos-client), at the range the package declares. */
async function optionalPeer(pkg: (typeof publishedPackages)[number], name: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(repositoryRoot, 'packages', pkg, 'package.json'), 'utf8'));
  const range: string | undefined = manifest.peerDependencies?.[name];
  return range ? [`${name}@${range}`] : [];
}

/**
 * A fresh folder under the OS temp dir (outside the workspace, so nothing resolves through its
 * node_modules) with the five tarballs installed together by npm, third-party dependencies from the registry,
 * and pg (the optional peer of @fin/server-kit/postgres, which its users install beside it, as its README
 * says). `testing: true` adds msw, the optional peer the `/testing` entries need.
 */
export async function installPackedPackages({
  testing = false,
}: {
  testing?: boolean;
} = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'fin-packed-'));
  await packWorkspace(folder);
  const tarballs = (await readdir(folder)).filter((file) => file.endsWith('.tgz'));
  await writeFile(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'fin-consumer', private: true })}\n`,
  );
  await cp(fileURLToPath(new URL('./fixtures', import.meta.url)), folder, { recursive: true });
  await npmInstall(folder, [
    ...tarballs.map((t) => `./${t}`),
    ...(await optionalPeer('server-kit', 'pg')),
    ...(testing ? await optionalPeer('pos-client', 'msw') : []),
  ]);
  return folder;
}

/** `npm install` of `specs` (tarballs, registry packages) in `folder`, quietly, with no lockfile. */
export async function npmInstall(folder: string, specs: string[]): Promise<void> {
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', ...specs],
    { cwd: folder, maxBuffer: 32 * 1024 * 1024 },
  );
}

/**
 * The environment without the NODE_PATH a pnpm or npx launcher sets to the workspace's modules: a user's
 * folder has none, and through it the optional peers the workspace holds (@opentelemetry/api) would resolve.
 */
export function userEnvironment(): NodeJS.ProcessEnv {
  const { NODE_PATH: _workspaceModules, ...env } = process.env;
  return env;
}

/**
 * Installs a version of a test runner from the npm registry into `folder/<name>` (its own package.json, so
 * two Jest majors sit beside each other) and copies the fixture tests of `fixtures/<fixtures>` into it; the
 * tests resolve @fin/* from the installed tarballs in the folder above.
 */
export async function installRunner(
  folder: string,
  name: string,
  dependency: Record<string, string>,
  fixtures: string,
): Promise<string> {
  const runner = join(folder, name);
  await cp(join(folder, fixtures), runner, { recursive: true });
  await writeFile(
    join(runner, 'package.json'),
    `${JSON.stringify({ name: `fin-${name}`, private: true, devDependencies: dependency })}\n`,
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
    cwd: runner,
    maxBuffer: 32 * 1024 * 1024,
  });
  return runner;
}

/** Runs a fixture script with the current Node (so the multi-Node CI run checks every major) and parses its JSON line. */
export async function runSmoke(
  folder: string,
  script: string,
  nodeOptions: string[] = [],
): Promise<{ entry: string; results: unknown }> {
  const { stdout } = await run(process.execPath, [...nodeOptions, resolve(folder, script)], {
    cwd: folder,
    env: userEnvironment(),
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
}

/** Lists the files a package's tarball holds, relative to the package root. */
export async function tarballFiles(folder: string, name: string): Promise<string[]> {
  const tarball = (await readdir(folder)).find(
    (file) => file.startsWith(`fin-${name}-`) && file.endsWith('.tgz'),
  );
  if (!tarball) throw new Error(`no tarball for ${name} in ${folder}`);
  const { stdout } = await run('tar', ['-tzf', join(folder, tarball)]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''))
    .sort();
}

/**
 * For a test file: the packages built if needed, packed and installed in a fresh folder before its tests
 * (msw beside them with `testing: true`), the folder removed after them. Returns the folder's path once installed.
 */
export function usePackedInstall(options: { testing?: boolean } = {}): () => string {
  let folder = '';
  beforeAll(async () => {
    await ensureBuilt();
    folder = await installPackedPackages(options);
  }, 600_000);
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  return () => folder;
}
