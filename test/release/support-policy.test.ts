// Release (issue 36 §6): the support policy the README and SECURITY.md state is the one the manifests and CI keep.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, repositoryRoot } from './packed-install.js';

const read = (path: string) => readFile(join(repositoryRoot, path), 'utf8');
const manifest = async (name: string) => JSON.parse(await read(join('packages', name, 'package.json')));

/** The README's `## Support policy` section. */
async function supportPolicy(): Promise<string> {
  const readme = await read('README.md');
  const start = readme.indexOf('## Support policy\n');
  expect(start, 'README.md has a "## Support policy" section').toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('support policy', () => {
  it('every package names the Node range the README promises for its major', async () => {
    const policy = await supportPolicy();
    for (const name of publishedPackages) {
      const { engines, version } = await manifest(name);
      const floor = /^>=(\d+)\.(\d+)\.0$/.exec(engines?.node ?? '');
      expect(floor, `@fin/${name} engines.node`).not.toBeNull();
      expect(policy).toContain(`Node.js ${floor?.[1]}.${floor?.[2]}+ for all of ${version.split('.')[0]}.x`);
      expect(policy).toContain(`\`@fin/${name}\``);
    }
  });

  it('the Node majors the README says CI tests are the ones CI runs', async () => {
    const policy = await supportPolicy();
    const script = await read('scripts/test-node-majors.sh');
    const otherMajors = /FIN_NODE_MAJORS:-([\d ]+)\}/.exec(script)?.[1]?.trim().split(' ') ?? [];
    expect(otherMajors.length).toBeGreaterThan(0);
    expect(policy).toContain(`on Node ${otherMajors.join(' and ')}`);
  });

  it('SECURITY.md says how to report and which versions get fixes, linked from the README', async () => {
    const security = await read('SECURITY.md');
    expect(security).toMatch(/## Reporting a vulnerability/);
    expect(security).toMatch(/## Supported versions/);
    const majors = new Set(
      await Promise.all(publishedPackages.map(async (name) => (await manifest(name)).version.split('.')[0])),
    );
    for (const major of majors) if (major !== '0') expect(security).toContain(`${major}.x`);
    expect(await supportPolicy()).toContain('(SECURITY.md)');
  });
});
