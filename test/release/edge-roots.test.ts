// Issue 36 §4 (DESIGN 29): the installed roots of @fin/core and @fin/authorization-client bundle for browsers and workers with no Node built-in, run in an edge VM and type-check with `types: []`.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EdgeVM } from '@edge-runtime/vm';
import { signWebhook, webhookEvents } from '@fin/authorization-client/testing';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repositoryRoot, usePackedInstall, userEnvironment } from './packed-install.js';

const run = promisify(execFile);

const installed = usePackedInstall();

const edgeRoots = ['@fin/core', '@fin/authorization-client'] as const;

/** A Node built-in by any spelling (`node:tls`, `tls`, `tls/promises`). */
const isBuiltin = (path: string) =>
  path.startsWith('node:') || builtinModules.includes(path.split('/')[0] ?? path);

/** Bundles `source` for a worker (platform browser, the `worker` and `browser` conditions) from the installed folder. */
async function workerBundle(source: string, format: 'esm' | 'iife') {
  const entry = join(installed(), `edge-${crypto.randomUUID()}.mjs`);
  await writeFile(entry, source);
  return build({
    absWorkingDir: installed(),
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    conditions: ['worker', 'browser'],
    format,
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
  });
}

const secret = `whsec_${Buffer.from('edge-runtime-test-secret-32bytes').toString('base64')}`;

/** An edge VM holding the authorization client's root as `globalThis.fin`. */
async function edgeVmWithClientRoot(): Promise<EdgeVM> {
  const bundle = await workerBundle(
    "import * as fin from '@fin/authorization-client';\nglobalThis.fin = fin;\n",
    'iife',
  );
  const vm = new EdgeVM();
  vm.evaluate(bundle.outputFiles[0]?.text ?? expect.fail('esbuild wrote the bundle'));
  return vm;
}

describe('issue 36 §4: edge-safe roots (DESIGN 29)', () => {
  it.each(edgeRoots)(
    '%s: an esbuild bundle for platform browser with the worker conditions succeeds and holds no Node built-in',
    async (root) => {
      const bundle = await workerBundle(`export * from '${root}';\n`, 'esm');
      expect(bundle.errors).toEqual([]);
      const inputs = Object.keys(bundle.metafile.inputs);
      expect(inputs.filter((input) => input.includes('node_modules/undici/'))).toEqual([]);
      const imports = Object.values(bundle.metafile.outputs).flatMap((output) =>
        output.imports.map((imported) => imported.path),
      );
      expect(imports.filter(isBuiltin)).toEqual([]);
    },
  );

  it('verifyWebhook from the root runs in @edge-runtime/vm: a signed event verifies, a forged one is refused', async () => {
    const vm = await edgeVmWithClientRoot();
    const event = webhookEvents.contractCreated({ contractId: 'ctr_edge_1' });
    const signed = await signWebhook({ secret, event });
    const verify = (body: string) =>
      vm.evaluate(
        `fin.verifyWebhook(${JSON.stringify(body)}, ${JSON.stringify(signed.headers)}, { secrets: [${JSON.stringify(secret)}] })
          .then((event) => JSON.stringify({ type: event.type, contractId: event.data.contractId }),
                (error) => JSON.stringify({ error: error.name, code: error.code }))`,
      );
    expect(JSON.parse(await verify(signed.body))).toEqual({
      type: 'contract.created',
      contractId: 'ctr_edge_1',
    });
    const forged = signed.body.replace('ctr_edge_1', 'ctr_edge_2');
    expect(JSON.parse(await verify(forged))).toMatchObject({ error: 'WebhookVerificationError' });
  });

  it("createWebhookHandler from the root answers the edge runtime's own Request in @edge-runtime/vm", async () => {
    const vm = await edgeVmWithClientRoot();
    const signed = await signWebhook({ secret, event: webhookEvents.contractCreated() });
    const answer = (headers: Record<string, string>) =>
      vm.evaluate(
        `(() => {
          const seen = [];
          const handler = fin.createWebhookHandler({ secrets: [${JSON.stringify(secret)}], onEvent: (event) => { seen.push(event.type); } });
          const request = new Request('https://pos.example/webhooks', { method: 'POST', headers: ${JSON.stringify(headers)}, body: ${JSON.stringify(signed.body)} });
          return handler(request).then((response) => JSON.stringify({ status: response.status, seen }));
        })()`,
      );
    expect(JSON.parse(await answer(signed.headers))).toEqual({ status: 204, seen: ['contract.created'] });
    const unsigned = JSON.parse(await answer({ 'content-type': 'application/json' }));
    expect(unsigned.seen).toEqual([]);
    expect(unsigned.status).toBeGreaterThanOrEqual(400);
  });

  it('outside Node the client refuses `tls` when it is made, with a FinInputError on `tls` (decision EDGE-1)', async () => {
    const vm = await edgeVmWithClientRoot();
    const refusal = vm.evaluate(
      `(() => {
        try {
          new fin.AuthorizationClient({ baseUrl: 'https://financing.example', clientId: 'pos', clientSecret: 'secret',
            tls: { cert: '-----BEGIN CERTIFICATE-----', key: '-----BEGIN PRIVATE KEY-----' } });
          return 'made';
        } catch (error) {
          return JSON.stringify({ input: fin.isFinInputError(error), code: error.code, field: error.details[0].field, issue: error.details[0].issue });
        }
      })()`,
    );
    expect(JSON.parse(refusal)).toMatchObject({ input: true, code: 'validation_error', field: 'tls' });
    expect(JSON.parse(refusal).issue).toMatch(/mutual TLS needs Node/);
  });

  it.each([
    ['import', "const { AuthorizationClient } = await import('@fin/authorization-client');"],
    ['require', "const { AuthorizationClient } = require('@fin/authorization-client');"],
  ])(
    'on Node (%s) the installed client keeps `tls`: the node build of the agent is chosen',
    async (_, load) => {
      const make = `${load}
      new AuthorizationClient({ baseUrl: 'https://financing.example', clientId: 'pos', clientSecret: 'secret',
        tls: { cert: '-----BEGIN CERTIFICATE-----', key: '-----BEGIN PRIVATE KEY-----' } });
      console.log('made');`;
      const script = load.startsWith('const { AuthorizationClient } = await')
        ? ['--input-type=module', '-e', make]
        : ['-e', make];
      const { stdout } = await run(process.execPath, script, { cwd: installed(), env: userEnvironment() });
      expect(stdout.trim()).toBe('made');
    },
  );

  it.each(['NodeNext', 'Bundler'])(
    'a strict consumer with `types: []` (TypeScript 7 default) type-checks importing each root (ESM and CJS, moduleResolution %s)',
    async (resolution) => {
      const folder = installed();
      const module = resolution === 'NodeNext' ? 'NodeNext' : 'ESNext';
      const consumer = edgeRoots.map((root, i) => `import * as root${i} from '${root}';\n`).join('');
      const use = `export const roots = [${edgeRoots.map((_, i) => `root${i}`).join(', ')}];\n`;
      await writeFile(join(folder, `types-${resolution}.mts`), consumer + use);
      const files = [`types-${resolution}.mts`];
      if (resolution === 'NodeNext') {
        const required = edgeRoots.map((root, i) => `import root${i} = require('${root}');\n`).join('');
        await writeFile(join(folder, 'types-NodeNext.cts'), required + use);
        files.push('types-NodeNext.cts');
      }
      const tsconfig = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          target: 'ES2022',
          module,
          moduleResolution: resolution,
        },
        files,
      };
      const project = join(folder, `tsconfig.${resolution}.json`);
      await writeFile(project, JSON.stringify(tsconfig));
      const tsc = join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      const outcome = await run(process.execPath, [tsc, '-p', project], { cwd: folder }).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      expect(outcome).toBe('');
    },
  );
});
