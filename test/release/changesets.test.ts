// Release: the pending changesets parse and `changeset version` turns them into versions and changelogs.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages, repositoryRoot } from './packed-install.js';

const run = promisify(execFile);
const changesetCli = join(repositoryRoot, 'node_modules', '@changesets', 'cli', 'bin.js');

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

/** Copies what `changeset version` reads (manifests and .changeset/) to a throwaway folder, leaving the tree untouched. */
async function throwawayWorkspace(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'fin-changesets-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml'])
    await cp(join(repositoryRoot, file), join(folder, file));
  await cp(join(repositoryRoot, '.changeset'), join(folder, '.changeset'), { recursive: true });
  for (const group of ['packages', 'examples']) {
    const names = await readdir(join(repositoryRoot, group)).catch(() => []);
    for (const name of names) {
      const manifest = join(repositoryRoot, group, name, 'package.json');
      await mkdir(join(folder, group, name), { recursive: true });
      await cp(manifest, join(folder, group, name, 'package.json')).catch(() => undefined);
    }
  }
  return folder;
}

let folder = '';
let pending: string[] = [];

beforeAll(async () => {
  folder = await throwawayWorkspace();
  pending = (await readdir(join(folder, '.changeset'))).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  await run(process.execPath, [changesetCli, 'version'], { cwd: folder });
}, 120_000);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('changesets', () => {
  it('the config versions the five public packages, public access, internal dependents bumped', async () => {
    const config = await readJson(join(repositoryRoot, '.changeset', 'config.json'));
    expect(config).toMatchObject({
      access: 'public',
      baseBranch: 'main',
      ignore: [],
      updateInternalDependencies: 'patch',
    });
    for (const name of publishedPackages) {
      const pkg = await readJson(join(repositoryRoot, 'packages', name, 'package.json'));
      expect(pkg.name).toBe(`@fin/${name}`);
      expect(pkg.private).toBeUndefined();
    }
  });

  it('every workspace package outside packages/ is private, so no example is ever published', async () => {
    const examples = await readdir(join(repositoryRoot, 'examples')).catch(() => []);
    for (const name of examples) {
      const pkg = await readJson(join(repositoryRoot, 'examples', name, 'package.json')).catch(
        () => undefined,
      );
      if (pkg) expect(pkg.private, `examples/${name}`).toBe(true);
    }
  });

  it('`changeset version` consumes every pending changeset and writes versions and changelogs', async () => {
    const left = (await readdir(join(folder, '.changeset'))).filter(
      (file) => file.endsWith('.md') && file !== 'README.md',
    );
    expect(left).toEqual([]);
    if (pending.length === 0) return;
    for (const name of publishedPackages) {
      const before = await readJson(join(repositoryRoot, 'packages', name, 'package.json'));
      const after = await readJson(join(folder, 'packages', name, 'package.json'));
      const changelog = await readFile(join(folder, 'packages', name, 'CHANGELOG.md'), 'utf8').catch(
        () => '',
      );
      if (after.version === before.version) continue;
      expect(changelog, `@fin/${name}`).toContain(`## ${after.version}`);
    }
  });
});
