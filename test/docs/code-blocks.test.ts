// Docs that compile and run: every TypeScript/JavaScript block of README.md, docs/*.md and the package READMEs type-checks (strict, no skipLibCheck) in a fresh project holding only what its document says to install, from the packed tarballs; blocks marked `run` also run, against the sandboxes, and exit 0.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, packWorkspace, publishedPackages, repositoryRoot } from '../release/packed-install.js';
import { codeBlocks, installedPackages, type Program, programs } from './code-blocks.js';

const run = promisify(execFile);

/** The texts a reader copies code from: the front README, the guides, and the READMEs npm shows. */
const candidates = [
  'README.md',
  ...readdirSync(join(repositoryRoot, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  ...publishedPackages.map((name) => `packages/${name}/README.md`),
];
const read = (document: string) => readFileSync(join(repositoryRoot, document), 'utf8');
const documents = candidates.filter((document) => codeBlocks(read(document)).length > 0);

/** What any TypeScript reader already has in a Node project. */
const typescriptBaseline = ['typescript@5.9.3', '@types/node@^20.19.0'];

const tsconfig = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
    target: 'es2022',
    lib: ['es2023', 'dom'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    moduleDetection: 'force', // every block is a module of its own, as the reader's file would be
    types: ['node'],
    allowJs: true,
    checkJs: true,
  },
  include: ['*.ts', '*.mjs'],
};

let tarballs = '';
const tarballOf = async (name: string) => {
  const file = (await readdir(tarballs)).find(
    (entry) => entry.startsWith(`fin-${name}-`) && entry.endsWith('.tgz'),
  );
  if (!file) throw new Error(`no tarball for @fin/${name}`);
  return join(tarballs, file);
};

beforeAll(async () => {
  await ensureBuilt();
  tarballs = await mkdtemp(join(tmpdir(), 'fin-doc-tarballs-'));
  await packWorkspace(tarballs);
}, 600_000);

const projects = new Map<string, Promise<string>>();
afterAll(async () => {
  const folders = await Promise.allSettled(projects.values());
  for (const folder of folders)
    if (folder.status === 'fulfilled') await rm(folder.value, { recursive: true, force: true });
  if (tarballs) await rm(tarballs, { recursive: true, force: true });
});

/**
 * A fresh ESM project beside nothing: the packages the text names (ours from their tarballs; an @fin
 * package they depend on resolves to its tarball too, as it would from the registry), and TypeScript.
 * Documents naming the same packages share one.
 */
function readerProject(packages: string[]): Promise<string> {
  const key = packages.join(' ');
  let project = projects.get(key);
  if (!project) {
    project = createReaderProject(packages);
    projects.set(key, project);
  }
  return project;
}

async function createReaderProject(packages: string[]): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'fin-doc-reader-'));
  const fin = Object.fromEntries(
    await Promise.all(
      publishedPackages.map(async (name) => [`@fin/${name}`, `file:${await tarballOf(name)}`]),
    ),
  );
  const named = packages.map((name) => fin[name] ?? name);
  // npm refuses an override of a direct dependency: only the @fin packages the text leaves out get one.
  const overrides = Object.fromEntries(Object.entries(fin).filter(([name]) => !packages.includes(name)));
  await writeFile(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'doc-reader', private: true, type: 'module', overrides }, null, 2)}\n`,
  );
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...named, ...typescriptBaseline],
    { cwd: folder, maxBuffer: 32 * 1024 * 1024 },
  );
  return folder;
}

const fileOf = (document: string, program: Program) =>
  `${document.replace(/\W+/g, '-')}-line-${program.line}.${program.language === 'ts' ? 'ts' : 'mjs'}`;

it('finds the code of every guide and package README', () => {
  for (const guide of ['docs/authorization-client.md', 'docs/pos-client.md', 'docs/server-kit.md'])
    expect(documents).toContain(guide);
  for (const name of publishedPackages) expect(documents).toContain(`packages/${name}/README.md`);
});

it('runs a sandbox script from each guide (authorization sandbox, simulated POS, memory store)', () => {
  for (const guide of ['docs/authorization-client.md', 'docs/pos-client.md', 'docs/server-kit.md'])
    expect(programs(codeBlocks(read(guide))).filter((program) => program.run).length, guide).toBeGreaterThan(
      0,
    );
});

describe.each(documents)('%s', (document) => {
  it('every TypeScript/JavaScript block type-checks with only the packages it tells the reader to install, and every block marked run exits 0 there', async () => {
    const markdown = read(document);
    const checked = programs(codeBlocks(markdown));
    const packages = installedPackages(markdown);
    expect(packages.filter((name) => name.startsWith('@fin/')).length).toBeGreaterThan(0);
    const project = await readerProject(packages);
    const folder = await mkdtemp(join(project, 'doc-'));
    try {
      await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      await Promise.all(
        checked.map((program) => writeFile(join(folder, fileOf(document, program)), program.code)),
      );
      const errors = await run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], {
        cwd: folder,
      }).then(
        () => '',
        (failure: { stdout: string }) => failure.stdout,
      );
      expect(errors).toBe('');
      for (const program of checked.filter((each) => each.run)) {
        const script = join(folder, 'out', fileOf(document, program).replace(/\.ts$/, '.js'));
        const outcome = await run(process.execPath, [script], { cwd: folder, timeout: 60_000 }).then(
          () => 'exit 0',
          (failure: { code: number; stderr: string }) => `exit ${failure.code}: ${failure.stderr}`,
        );
        expect(outcome, `${document} line ${program.line}`).toBe('exit 0');
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 600_000);
});
