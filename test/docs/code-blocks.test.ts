// Docs that compile: every TypeScript/JavaScript block of the package READMEs type-checks (strict, no skipLibCheck) in a fresh project holding only what the README says to install, from the packed tarballs.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, publishedPackages, repositoryRoot } from '../release/packed-install.js';
import { codeBlocks, installedPackages } from './code-blocks.js';
import { readDoc } from './markdown.js';

const run = promisify(execFile);

/**
 * The READMEs npm shows, each standing on its own: the reader has nothing else. The guides under docs/
 * are not here yet: their blocks continue one another and use the reader's own functions, so they need
 * a declared preamble per guide before they can be checked the same way.
 */
const documents = publishedPackages.map((name) => `packages/${name}/README.md`);

/** What any TypeScript reader already has in a Node project. */
const typescriptBaseline = ['typescript@5.9.3', '@types/node@^20.19.0'];

const tsconfig = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: 'es2022',
    lib: ['es2023', 'dom'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
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
  await run(
    'npx',
    ['-y', 'pnpm@10.34.8', '-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs],
    {
      cwd: repositoryRoot,
      maxBuffer: 32 * 1024 * 1024,
    },
  );
}, 600_000);

afterAll(async () => {
  if (tarballs) await rm(tarballs, { recursive: true, force: true });
});

/**
 * A fresh ESM project beside nothing: the packages the text names (ours from their tarballs; an @fin
 * package they depend on resolves to its tarball too, as it would from the registry), and TypeScript.
 */
async function readerProject(packages: string[]): Promise<string> {
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

describe.each(documents)('%s', (document) => {
  it('every TypeScript/JavaScript block type-checks with only the packages it tells the reader to install', async () => {
    const markdown = await readDoc(document);
    const blocks = codeBlocks(markdown);
    expect(blocks.length).toBeGreaterThan(0);
    const packages = installedPackages(markdown);
    expect(packages.filter((name) => name.startsWith('@fin/')).length).toBeGreaterThan(0);
    const folder = await readerProject(packages);
    try {
      await mkdir(folder, { recursive: true });
      await Promise.all(
        blocks.map((block, index) =>
          writeFile(join(folder, `block-${index + 1}.${block.language === 'ts' ? 'ts' : 'mjs'}`), block.code),
        ),
      );
      const checked = await run(join(folder, 'node_modules', '.bin', 'tsc'), ['-p', '.'], {
        cwd: folder,
      }).then(
        () => '',
        (failure: { stdout: string }) => failure.stdout,
      );
      expect(checked).toBe('');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 600_000);
});
