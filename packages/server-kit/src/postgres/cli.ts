#!/usr/bin/env node
// fin-server-kit-migrate: the deployer's command that runs migrate() against DATABASE_URL (or --database-url) and exits.
import { parseArgs } from 'node:util';
import { migrate } from './migrate.js';

const USAGE = `Usage: fin-server-kit-migrate [--database-url postgres://user:password@host:5432/db]

Applies the pending migrations of @fin/server-kit's PostgreSQL schema and prints the version.
Without --database-url it reads the DATABASE_URL environment variable. Safe to run on every deploy
and from several machines at once: the migrations wait for each other on an advisory lock.
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'database-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const connectionString = values['database-url'] ?? process.env.DATABASE_URL;
  if (!connectionString) {
    process.stderr.write(`No database: pass --database-url or set DATABASE_URL.\n\n${USAGE}`);
    return 2;
  }
  const report = await migrate({ connectionString });
  const what = report.applied.length > 0 ? `applied ${report.applied.join(', ')}` : 'nothing to apply';
  process.stdout.write(`fin-server-kit-migrate: ${what}; schema version ${report.version}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // The message only: a connection error's stack may carry the connection string.
    process.stderr.write(
      `fin-server-kit-migrate: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
