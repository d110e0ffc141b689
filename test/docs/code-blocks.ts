// The code a reader copies from the docs: the TypeScript/JavaScript blocks of a Markdown text, the programs they make, and the packages its install lines name.

/**
 * What a block is to the reader, from the words after the language of its fence (docs/contributing.md,
 * "Code blocks in the docs"):
 * - ```ts : an example; it is checked with every preamble above it in the same document.
 * - ```ts preamble : "the examples below assume": what the reader's own code provides (its imports and
 *   `declare` lines); it is prepended to every later example of the document.
 * - ```ts standalone : a complete program; it is checked alone, even below a preamble.
 * - `run` (with either): the program is also run, and must exit 0.
 */
export interface CodeBlock {
  language: 'ts' | 'js';
  role: 'example' | 'preamble' | 'standalone';
  run: boolean;
  code: string;
  /** Line of the opening fence, 1-based, for messages. */
  line: number;
}

const fence = /^([ \t]*)```(ts|typescript|js|javascript)((?:[ \t]+[\w-]+)*)[ \t]*\n([\s\S]*?)^\1```[ \t]*$/gm;

/** The ```ts / ```typescript / ```js / ```javascript blocks of a Markdown text, in order (list-item fences too). */
export const codeBlocks = (markdown: string): CodeBlock[] =>
  [...markdown.matchAll(fence)].map((match) => {
    const [, indent = '', language = '', info = '', body = ''] = match;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const unknown = words.filter((word) => !['preamble', 'standalone', 'run'].includes(word));
    const line = markdown.slice(0, match.index).split('\n').length;
    if (unknown.length > 0) throw new Error(`line ${line}: unknown code block marker ${unknown.join(', ')}`);
    return {
      language: language.startsWith('t') ? 'ts' : 'js',
      role: words.includes('preamble') ? 'preamble' : words.includes('standalone') ? 'standalone' : 'example',
      run: words.includes('run'),
      code: body
        .split('\n')
        .map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text))
        .join('\n'),
      line,
    };
  });

/** One program to check: a block with the preambles above it, as the reader would have it. */
export interface Program {
  language: 'ts' | 'js';
  code: string;
  run: boolean;
  line: number;
}

/** Every example and standalone block as a program; a preamble only ever prefixes the examples below it. */
export function programs(blocks: CodeBlock[]): Program[] {
  const preambles: string[] = [];
  const result: Program[] = [];
  for (const block of blocks) {
    if (block.role === 'preamble') {
      preambles.push(block.code);
      continue;
    }
    const prefix = block.role === 'example' && block.language === 'ts' ? preambles : [];
    result.push({
      language: block.language,
      code: [...prefix, block.code].join('\n'),
      run: block.run,
      line: block.line,
    });
  }
  return result;
}

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
