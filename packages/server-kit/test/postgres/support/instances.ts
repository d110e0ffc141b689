// Starts service instances as child processes on loopback and speaks HTTP to them, as a POS behind a load balancer would.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientRegistration } from '@fin/server-kit';

const entry = fileURLToPath(new URL('./service-instance.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

export interface Instance {
  readonly baseUrl: string;
  readonly process: ChildProcess;
  /** Asks it to stop (closes its stdin) and waits until it has. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown at all, as when a machine dies. */
  kill(): Promise<void>;
  /** What it wrote to stderr so far (its log lines, when it logs). */
  stderr(): string;
}

/**
 * Copies the instance script into `folder` (where the packed tarballs are installed), so its `@fin/*`
 * imports resolve to the installed packages, not the workspace's; returns the entry for `startInstance`.
 */
export async function packedInstanceEntry(folder: string): Promise<string> {
  const target = join(folder, 'fault-instance');
  await mkdir(target, { recursive: true });
  for (const file of ['service-instance.ts', 'partners.ts']) {
    await copyFile(fileURLToPath(new URL(`./${file}`, import.meta.url)), join(target, file));
  }
  // ESM, as the workspace: the instance imports the packages' `import` builds.
  await writeFile(join(target, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  return join(target, 'service-instance.ts');
}

export async function startInstance(
  env: {
    DATABASE_URL: string;
    FIN_TEST_NOW?: string;
    FIN_TEST_LIMITS?: string;
    FIN_TEST_PG_TIMEOUTS?: string;
    FIN_TEST_PREPARED_STATEMENTS?: 'on' | 'off';
    FIN_TEST_WEBHOOKS?: string;
  },
  /** `packedInstanceEntry(folder)`: the same instance on the packed packages; default: on the sources. */
  { from = entry }: { from?: string } = {},
): Promise<Instance> {
  // Without the NODE_PATH a pnpm launcher sets to the workspace's modules: a packed install must not see them.
  const { NODE_PATH: _workspaceModules, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', tsx, from], {
    // tsx applies the tsconfig.json of its working folder: the workspace's `paths` would map `@fin/*` to
    // the sources, so a packed instance runs in its own folder, which has none.
    cwd: from === entry ? undefined : dirname(from),
    env: { ...(from === entry ? process.env : inherited), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]!).port);
    });
    child.once('exit', (code) => reject(new Error(`service instance exited with ${code}: ${stderr}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    process: child,
    async stop() {
      child.stdin!.end();
      await exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    stderr: () => stderr,
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  body: any;
}

/** A system token for `client`; tokens live in the shared database, so any instance accepts it. */
export async function tokenFor(instance: Instance, client: ClientRegistration): Promise<string> {
  const response = await fetch(`${instance.baseUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': randomUUID() },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'sales:authorize',
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** One write POST, as the POS sends it: fresh request id, the journey's correlation id, its Idempotency-Key. */
export async function post(
  instance: Instance,
  path: string,
  body: unknown,
  call: { token: string; idempotencyKey: string; correlationId?: string },
): Promise<Answer> {
  const response = await fetch(`${instance.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${call.token}`,
      'content-type': 'application/json',
      'x-request-id': randomUUID(),
      'x-correlation-id': call.correlationId ?? randomUUID(),
      'idempotency-key': call.idempotencyKey,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** An answer as a retry must see it again: everything but the echo of the retry's own X-Request-Id. */
export const replayable = (answer: Answer) => ({
  status: answer.status,
  body: { ...answer.body, requestId: null },
});
