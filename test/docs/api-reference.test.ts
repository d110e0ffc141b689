// docs/api: the committed HTML reference is current and, in headless Chromium, renders every endpoint of both APIs.
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReferencePages, apiReferences } from '../../scripts/api-reference.js';
import { announceSkip, chromiumPath, launchChromium, skipBrowser } from './chromium.js';

const root = new URL('../../', import.meta.url);

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Every path + method of a document, with the operationId Redoc uses as the section anchor. */
const endpointsOf = (slug: string) => {
  const reference = apiReferences.find((candidate) => candidate.slug === slug);
  if (!reference) throw new Error(`no API reference ${slug}`);
  return Object.entries(reference.build().paths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      return operation ? [{ path, method, operationId: operation.operationId ?? '' }] : [];
    }),
  );
};

/** The operationIds of a document's webhooks (OpenAPI 3.1 `webhooks`: requests the API sends), which Redoc renders as sections too. */
const webhooksOf = (slug: string) => {
  const reference = apiReferences.find((candidate) => candidate.slug === slug);
  if (!reference) throw new Error(`no API reference ${slug}`);
  return Object.values(reference.build().webhooks ?? {}).map(
    (item) => (item as { post?: { operationId?: string } }).post?.operationId ?? '',
  );
};

describe('docs/api', () => {
  it.each(apiReferencePages)(
    '$path is not stale (regenerate with `pnpm openapi`)',
    async ({ path, render }) => {
      const committed = await readFile(new URL(path, root), 'utf8').catch(() => '');
      expect(committed === render(), `${path} is stale: run \`pnpm openapi\` and commit it`).toBe(true);
    },
  );
});

announceSkip('docs/api browser test');

describe.skipIf(skipBrowser)(`docs/api in headless Chromium (${chromiumPath})`, () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a committed page with every request that would leave the machine aborted and recorded. */
  const open = async (file: string) => {
    if (!browser) throw new Error('Chromium did not start');
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const leftTheMachine: string[] = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (/^(file|blob|data):/.test(url)) return route.continue();
      leftTheMachine.push(url);
      return route.abort();
    });
    await page.goto(new URL(`docs/api/${file}`, root).href);
    return { page, leftTheMachine, errors };
  };

  it.each(apiReferences.map(({ slug }) => slug))(
    '%s.html renders every path and method of its OpenAPI document, offline',
    async (slug) => {
      const { page, leftTheMachine, errors } = await open(`${slug}.html`);
      const endpoints = endpointsOf(slug);
      expect(endpoints.length).toBeGreaterThan(0);
      for (const { path, method, operationId } of endpoints) {
        const section = page.locator(`[id="operation/${operationId}"]`);
        await section.waitFor({ state: 'attached', timeout: 20_000 });
        expect(await section.locator('.http-verb').first().textContent(), operationId).toBe(method);
        expect(await section.textContent(), operationId).toContain(path);
      }
      const webhooks = webhooksOf(slug);
      for (const operationId of webhooks)
        await page.locator(`[id="operation/${operationId}"]`).waitFor({ state: 'attached', timeout: 20_000 });
      expect(await page.locator('[id^="operation/"]').count()).toBe(endpoints.length + webhooks.length);
      expect(errors).toEqual([]);
      expect(leftTheMachine).toEqual([]);
      await page.close();
    },
  );

  it('index.html links to the page of each API', async () => {
    const { page, errors } = await open('index.html');
    const links = await page
      .locator('main a')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(links).toEqual(apiReferences.map(({ slug }) => `${slug}.html`));
    expect(errors).toEqual([]);
    await page.close();
  });
});
