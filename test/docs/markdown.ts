// The repository's Markdown documentation: which files, their Mermaid blocks and their relative links.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

const markdownUnder = async (folder: string): Promise<string[]> => {
  const entries = await readdir(join(repositoryRoot, folder), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(repositoryRoot, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('node_modules'));
};

/** README.md, docs/**, and every package's and example's Markdown, as repository-relative paths. */
export async function documentationFiles(): Promise<string[]> {
  const groups = await Promise.all(['docs', 'packages', 'examples'].map(markdownUnder));
  return ['README.md', ...groups.flat().filter((path) => !/\/(test|src|dist)\//.test(path))].sort();
}

export const readDoc = (path: string) => readFile(join(repositoryRoot, path), 'utf8');

/** The bodies of the ```mermaid fences of a Markdown text. */
export const mermaidBlocks = (markdown: string): string[] =>
  [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');

/** Targets of inline links and images that point inside the repository (no scheme, not a bare #anchor). */
export const relativeLinks = (markdown: string): string[] =>
  [...markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => target !== '' && !target.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(target));
