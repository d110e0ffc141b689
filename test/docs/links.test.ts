// Every relative link in the documentation points at a file or folder that exists in the repository.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, readDoc, relativeLinks, repositoryRoot } from './markdown.js';

const files = await documentationFiles();

describe('documentation links', () => {
  it('covers the root README and the docs index', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/contributing.md']));
  });

  it.each(files)('%s links only to files that exist', async (file) => {
    const broken = relativeLinks(await readDoc(file)).filter((target) => {
      const path = decodeURIComponent(target.split('#')[0] ?? '');
      return path !== '' && !existsSync(join(repositoryRoot, dirname(file), path));
    });
    expect(broken).toEqual([]);
  });
});
