// A throwaway PostgreSQL server as a process of its own: starts on loopback, prints its port, and stops and deletes itself when its parent goes away.
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgresBinaries, postgresRunAs, type RunAs, runnableBy } from './postgres-binaries';

// Durability is not under test here (the service's instances are killed, never the database), so the
// server skips fsync: a test database then costs milliseconds.
const serverSettings = [
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'max_connections=300',
  'shared_buffers=64MB',
  'log_min_messages=warning',
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

/** Starts postgres and resolves once it accepts connections; rejects with its log if it exits first. */
function startServer(
  postgres: string,
  dataDir: string,
  port: number,
  runAs: RunAs | undefined,
): Promise<ChildProcess> {
  const args = ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''];
  for (const setting of serverSettings) args.push('-c', setting);
  return new Promise((resolve, reject) => {
    const child = spawn(postgres, args, {
      uid: runAs?.uid,
      gid: runAs?.gid,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        child.off('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`postgres exited with ${code} while starting: ${log}`));
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

async function main() {
  const runAs = postgresRunAs();
  const scratch = mkdtempSync(join(tmpdir(), 'fin-postgres-'));
  let server: ChildProcess | undefined;
  let stopping = false;
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
  // The parent closes our stdin when it is done, or by dying: either way the server goes with it.
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  try {
    if (runAs) chownSync(scratch, runAs.uid, runAs.gid);
    const binaries = runnableBy(await findPostgresBinaries(), runAs, scratch);
    const dataDir = join(scratch, 'data');
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
      const port = await freePort();
      try {
        server = await startServer(binaries.postgres, dataDir, port, runAs);
        process.stdout.write(`${JSON.stringify({ port, source: binaries.source })}\n`);
        break;
      } catch (error) {
        // Another process may take the free port between our probe and postgres' bind: try another.
        if (attempt >= 5 || !String(error).includes('could not')) throw error;
      }
    }
    server.once('exit', (code) => {
      if (!stopping) {
        process.stderr.write(`postgres exited unexpectedly with ${code}\n`);
        void stop();
      }
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    rmSync(scratch, { recursive: true, force: true });
    process.exit(1);
  }
}

void main();
