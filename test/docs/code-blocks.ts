// The code a reader copies from the docs: the TypeScript/JavaScript blocks of a Markdown text and the packages its install lines name.

/** One fenced block: its language and its body. */
export interface CodeBlock {
  language: 'ts' | 'js';
  code: string;
}

/** The ```ts / ```typescript / ```js / ```javascript blocks of a Markdown text, in order. */
export const codeBlocks = (markdown: string): CodeBlock[] =>
  [...markdown.matchAll(/^```(ts|typescript|js|javascript)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1]?.startsWith('t') ? 'ts' : 'js',
    code: match[2] ?? '',
  }));

/** Every package an `npm install` line of the text's ```sh blocks names (flags and comments left out). */
export function installedPackages(markdown: string): string[] {
  const names = new Set<string>();
  for (const [, body] of markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)) {
    for (const line of (body ?? '').split('\n')) {
      const command = line.replace(/#.*$/, '').trim();
      const words = command.split(/\s+/);
      if (words[0] !== 'npm' || !['install', 'i', 'add'].includes(words[1] ?? '')) continue;
      for (const word of words.slice(2)) if (!word.startsWith('-')) names.add(word);
    }
  }
  return [...names].sort();
}
