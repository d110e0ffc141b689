// Release guard: refuses to publish while a package still points at the placeholder repository (manifest or README).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository address the manifests and READMEs use until the project has a public one. */
export const PLACEHOLDER_REPOSITORY = 'example.invalid';

/** The published packages, by folder under packages/. */
const packages = ['core', 'authorization-client', 'pos-client', 'pos-check', 'server-kit'];

export interface PackageToPublish {
  name: string;
  manifest: Record<string, unknown>;
  readme: string;
}

/** Every reason not to publish: a placeholder or missing repository, homepage or bugs address, a placeholder link. */
export function publishBlockers(candidates: readonly PackageToPublish[]): string[] {
  const blockers: string[] = [];
  for (const { name, manifest, readme } of candidates) {
    const addresses: Record<string, unknown> = {
      repository: (manifest.repository as { url?: unknown } | undefined)?.url,
      homepage: manifest.homepage,
      bugs: (manifest.bugs as { url?: unknown } | undefined)?.url,
    };
    for (const [field, value] of Object.entries(addresses)) {
      if (typeof value !== 'string' || value === '') blockers.push(`${name}: package.json has no ${field}`);
      else if (value.includes(PLACEHOLDER_REPOSITORY))
        blockers.push(`${name}: package.json ${field} is the placeholder ${value}`);
    }
    if (readme.includes(PLACEHOLDER_REPOSITORY))
      blockers.push(`${name}: README.md links to the placeholder repository`);
  }
  return blockers;
}

/** The workspace's packages as they would be published. */
export async function workspacePackages(root: string): Promise<PackageToPublish[]> {
  return Promise.all(
    packages.map(async (folder) => {
      const manifest = JSON.parse(await readFile(join(root, 'packages', folder, 'package.json'), 'utf8'));
      const readme = await readFile(join(root, 'packages', folder, 'README.md'), 'utf8');
      return { name: manifest.name as string, manifest, readme };
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const blockers = publishBlockers(await workspacePackages(fileURLToPath(new URL('..', import.meta.url))));
  if (blockers.length > 0) {
    console.error(
      `Not publishing: set the public repository address first (search for ${PLACEHOLDER_REPOSITORY}).\n- ${blockers.join('\n- ')}`,
    );
    process.exit(1);
  }
}
