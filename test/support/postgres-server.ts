// A throwaway PostgreSQL server as a process of its own: starts on loopback, prints its port, halts and resumes on command, and stops and deletes itself when its parent goes away.
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { loggedReady } from './logged-ready';
import {
  findPostgresBinaries,
  type PostgresVersion,
  postgresRunAs,
  type RunAs,
  runnableBy,
} from './postgres-binaries';

/** FIN_POSTGRES_VERSION from the parent: `embedded`, a major such as `15`, or unset (the default pick). */
function requestedVersion(): PostgresVersion {
  const value = process.env.FIN_POSTGRES_VERSION;
  if (!value) return 'default';
  return value === 'embedded' ? 'embedded' : Number(value);
}

// Durability against a machine crash is not under test here, so the server skips fsync: a test database
// then costs milliseconds. Commits stay synchronous (a WAL write, no flush): a server killed by the
// fault tests (SIGQUIT) keeps every commit it acknowledged, as a real one does.
const serverSettings = [
  'fsync=off',
  'full_page_writes=off',
  'max_connections=300',
  'shared_buffers=64MB',
  'log_min_messages=warning',
];
/** More `name=value` settings from the parent (the bench loads pg_stat_statements), one a line. */
const extraSettings = (process.env.FIN_POSTGRES_SETTINGS ?? '').split('\n').filter((line) => line !== '');

function run(command: string, args: string[], runAs: RunAs | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      uid: runAs?.uid,
      gid: runAs?.gid,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr}`)),
    );
  });
}

/** Starts postgres and resolves once it accepts connections; rejects with its log if it exits first or takes 2 minutes. */
async function startServer(
  postgres: string,
  dataDir: string,
  port: number,
  runAs: RunAs | undefined,
): Promise<ChildProcess> {
  const args = ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''];
  for (const setting of [...serverSettings, ...extraSettings]) args.push('-c', setting);
  const child = spawn(postgres, args, {
    uid: runAs?.uid,
    gid: runAs?.gid,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await loggedReady(child, /ready to accept connections/, 'postgres', 120_000);
  return child;
}

async function main() {
  const runAs = postgresRunAs();
  const scratch = mkdtempSync(join(tmpdir(), 'fin-postgres-'));
  let server: ChildProcess | undefined;
  let stopping = false;
  /** The server is down on purpose (`halt`): its exit is not a failure. */
  let halted = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGINT'); // "fast" shutdown: aborts open transactions, disconnects clients
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
    process.exit(0);
  };
  /**
   * Commands on stdin, one a line, each answered by a JSON line on stdout: `halt fast` (SIGINT: aborts
   * transactions, disconnects clients), `halt immediate` (SIGQUIT: no shutdown at all, crash recovery at
   * the next start), `resume` (starts again on the same data and port).
   */
  let port = 0;
  let dataDir = '';
  let binaries: ReturnType<typeof runnableBy> | undefined;
  let pending = '';
  const command = async (line: string) => {
    if (line === 'halt fast' || line === 'halt immediate') {
      halted = true;
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve));
        server.kill(line === 'halt fast' ? 'SIGINT' : 'SIGQUIT');
        await exited;
      }
      process.stdout.write(`${JSON.stringify({ halted: line })}\n`);
    } else if (line === 'resume' && binaries) {
      server = await startServer(binaries.postgres, dataDir, port, runAs);
      halted = false;
      watch(server);
      process.stdout.write(`${JSON.stringify({ resumed: true })}\n`);
    }
  };
  let queue = Promise.resolve();
  process.stdin.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      queue = queue
        .then(() => command(line))
        .catch((error) => {
          process.stderr.write(`${String(error)}\n`);
        });
    }
  });
  const watch = (child: ChildProcess) =>
    child.once('exit', (code) => {
      if (!stopping && !halted) {
        process.stderr.write(`postgres exited unexpectedly with ${code}\n`);
        void stop();
      }
    });
  // The parent closes our stdin when it is done, or by dying: either way the server goes with it.
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  try {
    if (runAs) chownSync(scratch, runAs.uid, runAs.gid);
    binaries = runnableBy(await findPostgresBinaries(requestedVersion()), runAs, scratch);
    dataDir = join(scratch, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
    const initdbArgs = [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ];
    await run(binaries.initdb, initdbArgs, runAs);
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      try {
        server = await startServer(binaries.postgres, dataDir, port, runAs);
        process.stdout.write(`${JSON.stringify({ port, source: binaries.source })}\n`);
        break;
      } catch (error) {
        // Another process may take the free port between our probe and postgres' bind: try another.
        if (attempt >= 5 || !String(error).includes('could not')) throw error;
      }
    }
    watch(server);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    rmSync(scratch, { recursive: true, force: true });
    process.exit(1);
  }
}

void main();
