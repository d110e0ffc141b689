// Release: every manifest names its repository, homepage, bugs, keywords and license, and the release refuses a placeholder address.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_REPOSITORY, publishBlockers, workspacePackages } from '../../scripts/release-guard.js';
import { repositoryRoot } from './packed-install.js';

const run = promisify(execFile);
const packages = await workspacePackages(repositoryRoot);

/** The packages as they would be once the real repository address replaced the placeholder everywhere. */
const withRealAddress = () =>
  packages.map((candidate) => {
    const real = (text: string) => text.replaceAll(PLACEHOLDER_REPOSITORY, 'github.com/fin-team');
    return {
      name: candidate.name,
      manifest: JSON.parse(real(JSON.stringify(candidate.manifest))),
      readme: real(candidate.readme),
    };
  });

describe('npm metadata', () => {
  it.each(packages.map((candidate) => [candidate.name, candidate.manifest] as const))(
    '%s sets repository (with its directory), homepage, bugs, keywords and license',
    (_name, manifest) => {
      expect(manifest).toMatchObject({
        repository: {
          type: 'git',
          url: expect.stringMatching(/^git\+https:\/\//),
          directory: expect.any(String),
        },
        homepage: expect.stringMatching(/^https:\/\//),
        bugs: { url: expect.stringMatching(/^https:\/\//) },
        license: 'MIT',
      });
      expect((manifest.keywords as string[]).length).toBeGreaterThan(3);
    },
  );
});

describe('release guard', () => {
  it('refuses every package while repository, homepage, bugs and README links use the placeholder', () => {
    const blockers = publishBlockers(packages);
    for (const { name } of packages) {
      expect(blockers.filter((blocker) => blocker.startsWith(`${name}: `))).toEqual([
        expect.stringMatching(
          /package\.json repository is the placeholder git\+https:\/\/example\.invalid\//,
        ),
        expect.stringMatching(/package\.json homepage is the placeholder https:\/\/example\.invalid\//),
        expect.stringMatching(/package\.json bugs is the placeholder https:\/\/example\.invalid\//),
      ]);
    }
  });

  it('FIT-8: package READMEs link to the docs by repository-relative paths (npm resolves them against repository), never the placeholder', () => {
    for (const { name, readme } of packages) {
      expect(readme, name).not.toContain(PLACEHOLDER_REPOSITORY);
      expect(readme, name).toMatch(/\]\(\.\.\/\.\.\/docs\/[\w-]+\.md\)/);
    }
  });

  it('refuses a package with no repository at all', () => {
    const [first] = withRealAddress();
    const { repository: _dropped, ...manifest } = first!.manifest;
    expect(publishBlockers([{ ...first!, manifest }])).toEqual([
      `${first!.name}: package.json has no repository`,
    ]);
  });

  it('lets the packages through once the real address replaces the placeholder', () => {
    expect(publishBlockers(withRealAddress())).toEqual([]);
  });

  it('the release script stops before building or publishing while the placeholder is there', async () => {
    const failure = await run(
      join(repositoryRoot, 'node_modules', '.bin', 'tsx'),
      ['scripts/release-guard.ts'],
      {
        cwd: repositoryRoot,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1, stderr: expect.stringContaining('Not publishing') });
  });
});
