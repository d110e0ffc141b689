// Test helper: a PostgreSQL 15 primary with a synchronous streaming standby (pg_basebackup -R) on loopback ports, whose primary can be killed outright and whose standby can be promoted.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { loggedReady } from './logged-ready';
import { withClient } from './postgres';
import { findPostgresBinaries, postgresRunAs, type RunAs, runnableBy } from './postgres-binaries';

const run = promisify(execFile);

/** The standby's name in the primary's `synchronous_standby_names` (its walreceiver reports `cluster_name`). */
const STANDBY_NAME = 'standby';

// As the single test server: no fsync (a killed process, not a crashed machine, is under test); here each
// commit also waits until the standby has it (synchronous_commit = on, the default, with a named standby).
const SETTINGS = [
  'fsync=off',
  'full_page_writes=off',
  'max_connections=100',
  'shared_buffers=32MB',
  'log_min_messages=warning',
  'wal_level=replica',
  'max_wal_senders=4',
];

export interface ReplicatedPostgres {
  readonly primaryPort: number;
  readonly standbyPort: number;
  /** `postgres://user@127.0.0.1:<port>/database` (direct, no pooler). */
  connectionString(port: number, database?: string, user?: string): string;
  /** SIGKILL to the primary's whole process group: postmaster and backends die at once, as with the machine. */
  killPrimary(): void;
  /** `pg_promote()` on the standby, then its `synchronous_standby_names` cleared: it has no standby to wait for. */
  promoteStandby(): Promise<void>;
  stop(): Promise<void>;
}

interface Server {
  child: ChildProcess;
  port: number;
}

/** Starts postgres in a process group of its own; resolves when it logs `ready`, bounded at 60 s. */
function startServer(
  postgres: string,
  dataDir: string,
  runAs: RunAs | undefined,
  ready: RegExp,
  extra: string[],
) {
  return async (): Promise<Server> => {
    const port = await freePort();
    const args = ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''];
    for (const setting of [...SETTINGS, ...extra]) args.push('-c', setting);
    const child = spawn(postgres, args, {
      uid: runAs?.uid,
      gid: runAs?.gid,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await loggedReady(child, ready, 'postgres', 60_000);
    return { child, port };
  };
}

/** Polls `check` every 200 ms until it is true; fails with `what` after `ms`. */
export async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const killGroup = (server: Server | undefined, signal: NodeJS.Signals) => {
  if (!server?.child.pid || server.child.exitCode !== null || server.child.signalCode !== null) return;
  try {
    process.kill(-server.child.pid, signal);
  } catch {
    // The group is gone already.
  }
};

/**
 * Debian's PostgreSQL 15: a primary (synchronous_standby_names = the standby, set with ALTER SYSTEM so the
 * standby inherits it as a real pair's config does), and a standby made by `pg_basebackup -R`, streaming
 * and synchronous before this resolves.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const runAs = postgresRunAs();
  const scratch = mkdtempSync(join(tmpdir(), 'fin-replicated-'));
  const servers: Server[] = [];
  const stopAll = () => {
    for (const server of servers) killGroup(server, 'SIGKILL');
  };
  process.once('exit', stopAll);
  const as = { uid: runAs?.uid, gid: runAs?.gid };
  const url = (port: number, database = 'postgres', user = 'postgres') =>
    `postgres://${user}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  try {
    if (runAs) chownSync(scratch, runAs.uid, runAs.gid);
    const binaries = runnableBy(await findPostgresBinaries(15), runAs, scratch);
    const bin = dirname(binaries.postgres);
    const primaryDir = join(scratch, 'primary');
    const standbyDir = join(scratch, 'standby');
    for (const dir of [primaryDir, standbyDir]) {
      mkdirSync(dir, { mode: 0o700 });
      if (runAs) chownSync(dir, runAs.uid, runAs.gid);
    }
    await run(
      binaries.initdb,
      ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      as,
    );
    const primary = await startServer(
      binaries.postgres,
      primaryDir,
      runAs,
      /ready to accept connections/,
      [],
    )();
    servers.push(primary);
    await withClient(url(primary.port), async (db) => {
      await db.query(`ALTER SYSTEM SET synchronous_standby_names = '"${STANDBY_NAME}"'`);
      await db.query('SELECT pg_reload_conf()');
    });
    await run(
      join(bin, 'pg_basebackup'),
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        standbyDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ],
      { ...as, timeout: 60_000 },
    );
    const standby = await startServer(
      binaries.postgres,
      standbyDir,
      runAs,
      /ready to accept read-only connections/,
      [`cluster_name=${STANDBY_NAME}`],
    )();
    servers.push(standby);
    await waitFor('the standby to stream synchronously', 30_000, () =>
      withClient(url(primary.port), async (db) => {
        const { rows } = await db.query(
          "SELECT 1 FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming' AND sync_state = 'sync'",
          [STANDBY_NAME],
        );
        return rows.length === 1;
      }),
    );
    return {
      primaryPort: primary.port,
      standbyPort: standby.port,
      connectionString: url,
      killPrimary: () => killGroup(primary, 'SIGKILL'),
      async promoteStandby() {
        await withClient(url(standby.port), async (db) => {
          const { rows } = await db.query('SELECT pg_promote(true, 30) AS promoted');
          if (rows[0]?.promoted !== true) throw new Error('pg_promote() did not promote the standby in 30 s');
          await db.query("ALTER SYSTEM SET synchronous_standby_names = ''");
          await db.query('SELECT pg_reload_conf()');
        });
      },
      async stop() {
        process.off('exit', stopAll);
        await Promise.all(
          servers.map(async (server) => {
            if (server.child.exitCode !== null || server.child.signalCode !== null) return;
            const exited = new Promise((resolve) => server.child.once('exit', resolve));
            killGroup(server, 'SIGQUIT');
            await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
            killGroup(server, 'SIGKILL');
          }),
        );
        rmSync(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    stopAll();
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}
