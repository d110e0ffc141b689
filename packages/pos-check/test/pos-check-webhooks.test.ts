// fin-pos-check --webhook-url: a receiver built with createWebhookHandler passes every check; broken receivers fail exactly the checks they break.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createWebhookHandler, type WebhookHandlerOptions } from '@fin/authorization-client';
import { describe, expect, test } from 'vitest';
import type { CheckReport } from '../src/report.js';
import { webhookChecks } from '../src/webhook/checks.js';
import { runWebhookCheck } from '../src/webhook/run.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const run = promisify(execFile);

/** A loopback node:http server answering every request with `handle` (a Fetch-API handler). */
async function receiver(handle: (request: Request) => Promise<Response>) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    const response = await handle(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/fin`;
  return { url, [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const handler = (options: Partial<WebhookHandlerOptions> = {}) =>
  createWebhookHandler({ secrets: [SECRET], onEvent: () => {}, ...options });

const statuses = (report: CheckReport) => Object.fromEntries(report.results.map((r) => [r.id, r.status]));
const failing = (report: CheckReport) => report.results.filter((r) => r.status === 'fail').map((r) => r.id);

describe('fin-pos-check against webhook receivers', () => {
  test('a receiver built with createWebhookHandler passes every check, exit code 0', async () => {
    await using server = await receiver(handler());
    const report = await runWebhookCheck({ url: server.url, secret: SECRET });
    expect(statuses(report)).toEqual(Object.fromEntries(webhookChecks.map((check) => [check.id, 'pass'])));
    expect([report.exitCode, report.requests]).toEqual([0, webhookChecks.length]);
  });

  test('a receiver that accepts everything fails every refusal check, with the fix', async () => {
    await using server = await receiver(async () => new Response(null, { status: 200 }));
    const report = await runWebhookCheck({ url: server.url, secret: SECRET });
    expect(failing(report)).toEqual(webhookChecks.filter((c) => c.expect === 'refuse').map((c) => c.id));
    const stale = report.results.find((r) => r.id === 'webhook.rejects-stale')!;
    expect(stale.problems[0]).toMatchObject({
      message: expect.stringMatching(/accepted/),
      fix: expect.any(String),
    });
    expect(report.exitCode).toBe(1);
  });

  test('a receiver that never checks the timestamp fails exactly the stale and future-dated checks', async () => {
    await using server = await receiver(handler({ toleranceSeconds: 10 * 365 * 86_400 }));
    const report = await runWebhookCheck({ url: server.url, secret: SECRET });
    expect(failing(report)).toEqual(['webhook.rejects-stale', 'webhook.rejects-future']);
  });

  test('a receiver without rotation, failing unknown types, or with another secret fails those checks', async () => {
    const firstSignatureOnly = handler();
    await using strict = await receiver(async (request) => {
      const body = await request.text();
      if (JSON.parse(body).type === 'fin_pos_check.unknown_type') return new Response(null, { status: 400 });
      const headers = new Headers(request.headers);
      const signature = headers.get('webhook-signature');
      if (signature) headers.set('webhook-signature', signature.split(' ')[0]!);
      return firstSignatureOnly(new Request(request.url, { method: 'POST', headers, body }));
    });
    expect(failing(await runWebhookCheck({ url: strict.url, secret: SECRET }))).toEqual([
      'webhook.rotation',
      'webhook.unknown-type',
    ]);
    await using other = await receiver(handler({ secrets: ['whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'] }));
    const report = await runWebhookCheck({ url: other.url, secret: SECRET });
    expect(failing(report)).toEqual(['webhook.accepts-signed', 'webhook.rotation', 'webhook.unknown-type']);
  });

  test('a receiver that is down fails every check with "no answer" and the fix to reach it, never throws', async () => {
    const url = await (async () => {
      await using server = await receiver(handler());
      return server.url;
    })();
    const report = await runWebhookCheck({ url, secret: SECRET });
    for (const result of report.results) {
      expect(result).toMatchObject({
        status: 'fail',
        problems: [{ message: expect.stringMatching(/^no answer/) }],
      });
      expect(result.problems[0]?.fix).toMatch(/--webhook-url/);
    }
  });

  test('the CLI: --webhook-url and --webhook-secret run the checks; the secret is never printed; a bad secret is a usage error', async () => {
    await using server = await receiver(handler());
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
    const ok = await run(tsx, [cli, '--webhook-url', server.url, '--webhook-secret', SECRET, '--json']);
    expect(JSON.parse(ok.stdout)).toMatchObject({ exitCode: 0, summary: { pass: webhookChecks.length } });
    expect(ok.stdout + ok.stderr).not.toContain(SECRET.slice(6));
    const bad = await run(tsx, [cli, '--webhook-url', server.url, '--webhook-secret', `${SECRET} `]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('whitespace') });
  });
});
