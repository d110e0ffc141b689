// Every Mermaid diagram in the documentation parses and renders with Mermaid itself, in headless Chromium.
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, launchChromium, skipBrowser } from './chromium.js';
import { documentationFiles, mermaidBlocks, readDoc } from './markdown.js';

const mermaidBundle = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');

const diagrams = (
  await Promise.all(
    (
      await documentationFiles()
    ).map(async (file) =>
      mermaidBlocks(await readDoc(file)).map((code, index) => ({ name: `${file} #${index + 1}`, code })),
    ),
  )
).flat();

announceSkip('Mermaid diagram test');

describe.skipIf(skipBrowser)('Mermaid diagrams', () => {
  let browser: Browser | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.route('**/*', (route) => route.abort());
    await page.addScriptTag({ path: mermaidBundle });
    await page.evaluate(() => {
      (globalThis as unknown as MermaidGlobal).mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
      });
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the documentation has diagrams to check', () => {
    expect(diagrams.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['docs/sequence-diagrams.md #1', 'docs/contributing.md #1']),
    );
  });

  it.each(diagrams)('$name renders', async ({ code }) => {
    if (!page) throw new Error('Chromium did not start');
    const outcome = await page.evaluate(async (text) => {
      const { mermaid } = globalThis as unknown as MermaidGlobal;
      try {
        const { svg } = await mermaid.render(`diagram-${Math.random().toString(36).slice(2)}`, text);
        return { ok: true, svg };
      } catch (error) {
        return { ok: false, error: String((error as Error)?.message ?? error) };
      }
    }, code);
    expect(outcome.error).toBeUndefined();
    expect(outcome.svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });
});

interface MermaidGlobal {
  mermaid: {
    initialize(config: Record<string, unknown>): void;
    render(id: string, text: string): Promise<{ svg: string }>;
  };
}
