// `pnpm demo` end to end, as a child process: every step ok, a summary, servers stopped, nothing personal or secret in clear.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { describe, expect, it } from 'vitest';
import { findLeaks, type SecretKind } from '../../../test/reliability/support/secret-guard.js';
import { customers } from '../src/cast.js';
import type { DemoEvent } from '../src/events.js';
import { demoPartner, posVendor } from '../src/setup.js';
import { steps } from '../src/steps.js';
import type { SpanLine } from '../src/trace.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the demo as `pnpm demo` does; `onStdout` may act on its output as it comes (e.g. interrupt it). */
function runDemo(args: string[], onStdout?: (soFar: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, ['--import', tsx, 'examples/demo/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as DemoEvent);

/** Every clear value the demo's partner and scenes hold: all its IMEIs, employees' CPFs and passwords, customers, secrets. */
function demoSecrets(): Map<string, SecretKind> {
  const sim = createSimulatedPos({ seed: demoPartner.seed, size: demoPartner.size });
  const secrets = new Map<string, SecretKind>();
  for (const device of sim.data.devices()) secrets.set(device.imei, 'imei');
  for (const seller of sim.data.sellers) {
    secrets.set(seller.cpf, 'cpf');
    secrets.set(seller.password, 'password');
  }
  for (const customer of Object.values(customers)) secrets.set(customer.taxId, 'cpf');
  secrets.set(sim.credentials.clientSecret, 'client secret');
  secrets.set(posVendor.clientSecret, 'client secret');
  return secrets;
}

/** What leaked, by kind and channel; also any bearer token (ours are 43 base64url characters, the partner's `simpos_`). */
function leaksIn(run: Run) {
  const captures = [
    { channel: 'stdout', text: run.stdout },
    { channel: 'stderr', text: run.stderr },
  ];
  const tokenShaped = /simpos_[0-9a-f]{32}|Bearer |access_token|(?<![\w-])(?=[\w-]*[A-Z])[\w-]{43}(?![\w-])/;
  return [
    ...findLeaks(captures, demoSecrets()),
    ...captures
      .filter(({ text }) => tokenShaped.test(text))
      .map(({ channel }) => ({ kind: 'token', channel })),
  ];
}

describe('pnpm demo', () => {
  it('the README command `pnpm --silent demo --json` prints JSON lines only, no pnpm banner', async () => {
    const { packageManager } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      packageManager: string;
    };
    const run = await new Promise<Run>((resolve) => {
      const child = spawn('npx', ['-y', packageManager, '--silent', 'demo', '--json'], { cwd: root });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
    });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    expect(events(run.stdout).at(-1)?.event).toBe('summary');
  });

  it('--json: every step of the journey is an event with outcome ok, then the summary; nothing in clear', async () => {
    const run = await runDemo(['--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const all = events(run.stdout);
    const stepEvents = all.filter((event) => event.event === 'step');
    expect(stepEvents.map((event) => [event.step, event.id, event.outcome])).toEqual(
      steps.map((step, index) => [index + 1, step.id, 'ok']),
    );
    const progress = all.filter((event) => event.event === 'progress');
    expect(progress.length).toBeGreaterThan(10);
    expect(progress.every((event) => event.id === 'catalog-sync')).toBe(true);
    expect(progress.map((event) => event.percent)).toEqual(
      [...progress.map((event) => event.percent)].sort((a, b) => a - b),
    );
    expect(all.at(-1)).toMatchObject({
      event: 'summary',
      outcome: 'ok',
      passed: steps.length,
      failed: 0,
      notRun: 0,
      serversStopped: true,
      exitCode: 0,
    });
    const exchange = stepEvents.find((event) => event.id === 'exchange');
    expect(exchange?.data).toMatchObject({ firstVerification: 'PENDING', proposalReused: true });
    const contradicted = stepEvents.find((event) => event.id === 'contradicted-cancellation');
    expect(contradicted?.data).toMatchObject({ verification: 'CONTRADICTED', financingCancelled: false });
    expect(leaksIn(run)).toEqual([]);
  }, 60_000);

  it('text: a numbered, colour-free timeline when stdout is not a terminal, ending in the summary; nothing in clear', async () => {
    const run = await runDemo([]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('\x1b[');
    for (const [index, step] of steps.entries()) {
      expect(run.stdout).toMatch(
        new RegExp(`^ *${index + 1} {2}${step.title.replace(/[()]/g, '\\$&')} +ok `, 'm'),
      );
    }
    expect(run.stdout).toContain(`Summary  ${steps.length} of ${steps.length} steps passed`);
    expect(run.stdout).toContain('servers stopped');
    expect(run.stdout).toMatch(/\*{3}\.\d{3}\.\d{3}-\*{2}/); // CPFs shown masked
    expect(run.stdout).toMatch(/IMEI \*{11}\d{4}/); // IMEIs shown masked
    expect(leaksIn(run)).toEqual([]);
  }, 60_000);

  it('a step that goes wrong exits 1 naming it: the partner POS refuses connections during the catalog sync', async () => {
    const run = await runDemo(['--json', '--fault=partner-pos-down']);
    expect(run.code).toBe(1);
    const all = events(run.stdout);
    expect(all.filter((event) => event.event === 'step').map((event) => [event.id, event.outcome])).toEqual([
      ['partner-pos', 'ok'],
      ['catalog-sync', 'failed'],
    ]);
    expect(all.at(-1)).toMatchObject({
      event: 'summary',
      outcome: 'failed',
      passed: 1,
      failed: 1,
      notRun: steps.length - 2,
      serversStopped: true,
      exitCode: 1,
      reason: expect.stringMatching(/^step 2 \(catalog-sync\): catalog sync from the partner POS failed/),
    });
    expect(leaksIn(run)).toEqual([]);
  }, 60_000);

  it('Ctrl+C stops every server it started and exits 130, naming the step it stopped', async () => {
    const run = await runDemo(['--json'], (soFar, child) => {
      if (soFar.includes('"id":"partner-pos","title"') && !child.killed) child.kill('SIGINT');
    });
    expect(run.code).toBe(130);
    expect(events(run.stdout).at(-1)).toMatchObject({
      event: 'summary',
      outcome: 'interrupted',
      serversStopped: true,
      reason: expect.stringContaining('stopped by SIGINT'),
    });
  }, 60_000);

  it('--trace: its own spans, the server span of each API call the child of the client call; nothing in clear', async () => {
    const run = await runDemo(['--json', '--trace']);
    expect(run.code).toBe(0);
    const spans = (events(run.stdout) as unknown[]).filter(
      (event): event is SpanLine => (event as { event: string }).event === 'span',
    );
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const served = spans.filter((span) => span.kind === 'server' && span.name === 'POST /v1/sales/authorize');
    expect(served.length).toBeGreaterThan(0);
    for (const span of served) {
      expect(byId.get(span.parentSpanId!)).toMatchObject({
        kind: 'client',
        name: 'POST /v1/sales/authorize',
        traceId: span.traceId,
      });
    }
    expect(spans.some((span) => span.name === 'credit.analyze')).toBe(true);
    expect(spans.some((span) => span.name.startsWith('store.'))).toBe(true);
    expect(leaksIn(run)).toEqual([]);
  }, 60_000);
});
