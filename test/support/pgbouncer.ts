// Test helper: Debian's PgBouncer (transaction mode) on a loopback port in front of a test PostgreSQL, re-pointable to another server as an operator does at a failover.
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';
import { loggedReady } from './logged-ready';
import { postgresRunAs, type RunAs } from './postgres-binaries';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface TestPgBouncer {
  readonly port: number;
  /** `postgres://user@127.0.0.1:<port>/database`, through the pooler. */
  connectionString(database: string, user: string): string;
  /** Rewrites the ini to send every database to `serverPort` and reloads it (the admin console's RELOAD). */
  repoint(serverPort: number): Promise<void>;
  stop(): Promise<void>;
}

/** Bounded waits of the pooler: a dead server shows within a second or two, not PgBouncer's 15 s to 120 s defaults. */
const SETTINGS = {
  pool_mode: 'transaction',
  max_client_conn: '200',
  default_pool_size: '10',
  server_login_retry: '1',
  server_connect_timeout: '2',
  query_wait_timeout: '5',
};

/** Each database named (not the `*` fallback): PgBouncer re-reads a named one's address on RELOAD. */
function ini(folder: string, port: number, serverPort: number, databases: readonly string[]): string {
  return [
    '[databases]',
    ...databases.map((name) => `${name} = host=127.0.0.1 port=${serverPort} dbname=${name}`),
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(folder, 'users.txt')}`,
    'admin_users = postgres',
    ...Object.entries(SETTINGS).map(([name, value]) => `${name} = ${value}`),
    '',
  ].join('\n');
}

function writeOwned(path: string, text: string, runAs: RunAs | undefined) {
  writeFileSync(path, text, { mode: 0o600 });
  if (runAs) chownSync(path, runAs.uid, runAs.gid);
}

/** PgBouncer in transaction mode before the server on `serverPort`: its `databases`, for the logins `users` (trusted). */
export async function startPgBouncer(
  serverPort: number,
  { users, databases }: { users: readonly string[]; databases: readonly string[] },
): Promise<TestPgBouncer> {
  if (!existsSync(PGBOUNCER)) {
    throw new Error(`No ${PGBOUNCER}: install Debian's pgbouncer (apt-get install pgbouncer; .ci/run does).`);
  }
  const runAs = postgresRunAs();
  const folder = mkdtempSync(join(tmpdir(), 'fin-pgbouncer-'));
  if (runAs) chownSync(folder, runAs.uid, runAs.gid);
  const config = join(folder, 'pgbouncer.ini');
  writeOwned(join(folder, 'users.txt'), `${users.map((user) => `"${user}" ""`).join('\n')}\n`, runAs);
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 1; !child; attempt++) {
    port = await freePort();
    writeOwned(config, ini(folder, port, serverPort, databases), runAs);
    // PgBouncer refuses to run as root: as PostgreSQL, it runs as the unprivileged account.
    const candidate = spawn(PGBOUNCER, [config], {
      uid: runAs?.uid,
      gid: runAs?.gid,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await loggedReady(candidate, /listening on 127\.0\.0\.1/, 'pgbouncer', 20_000);
      child = candidate;
    } catch (error) {
      candidate.kill('SIGKILL');
      // Another process may take the free port between our probe and PgBouncer's bind: try another.
      if (attempt >= 5) throw error;
    }
  }
  const running = child;
  const onExit = () => running.kill('SIGKILL');
  process.once('exit', onExit);
  const connectionString = (database: string, user: string) =>
    `postgres://${user}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return {
    port,
    connectionString,
    async repoint(serverPort) {
      writeOwned(config, ini(folder, port, serverPort, databases), runAs);
      const console = new pg.Client({ connectionString: connectionString('pgbouncer', 'postgres') });
      await console.connect();
      try {
        await console.query('RELOAD');
      } finally {
        await console.end();
      }
    },
    async stop() {
      process.off('exit', onExit);
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((resolve) => running.once('exit', resolve));
        running.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        running.kill('SIGKILL');
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
