// migrate() and the fin-server-kit-migrate command: versioned, once each, safe to run concurrently, and refusing a newer schema.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { migrate, migrations, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';

const server = usePostgres();
const cli = fileURLToPath(new URL('../../src/postgres/cli.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
const latest = migrations.at(-1)!.version;

async function sql<Row extends pg.QueryResultRow>(
  connectionString: string,
  text: string,
  values: unknown[] = [],
) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function runCli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', tsx, cli, ...args], {
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('migrate()', () => {
  it('applies every migration once, even when several instances start at the same moment', async () => {
    const url = await server.createDatabase();
    const reports = await Promise.all([1, 2, 3].map(() => migrate({ connectionString: url })));
    expect(reports.flatMap((report) => report.applied)).toEqual(migrations.map((m) => m.version));
    expect(reports.every((report) => report.version === latest)).toBe(true);
    const recorded = await sql<{ version: number }>(
      url,
      'SELECT version FROM fin_schema_migrations ORDER BY 1',
    );
    expect(recorded.map((row) => row.version)).toEqual(migrations.map((m) => m.version));
    expect(await migrate({ connectionString: url })).toEqual({ applied: [], version: latest });
  });

  it('refuses a database migrated by a newer release', async () => {
    const url = await server.createDatabase();
    await migrate({ connectionString: url });
    await sql(url, "INSERT INTO fin_schema_migrations (version, name) VALUES ($1, 'from the future')", [
      latest + 1,
    ]);
    await expect(migrate({ connectionString: url })).rejects.toThrow(/newer than this release/);
  });

  it('a store on a database that was never migrated says to run the migrations', async () => {
    const store = postgresStore({ connectionString: await server.createDatabase() });
    try {
      await expect(store.getAuthorization('auth_1')).rejects.toThrow(/run migrate\(\)/);
    } finally {
      await store.close();
    }
  });

  it('R-10 is held by the schema itself: a raw second active row for one IMEI is refused', async () => {
    const url = await server.createDatabase();
    await migrate({ connectionString: url });
    const insert = `INSERT INTO fin_authorizations (authorization_id, client_id, status, version, issued_at,
      expires_at, updated_at, client_tax_id, store_id, imei, grand_total_cents, cart, proposal_id, proposal_use)
      VALUES ($1, 'partner-a', $2, 1, now(), now(), now(), '52998224725', 'store-1', '356938035643809', 100,
      '{}', $3, 0)`;
    await sql(url, insert, ['auth_1', 'CONFIRMED', 'prop_1']);
    await expect(sql(url, insert, ['auth_2', 'AUTHORIZED', 'prop_2'])).rejects.toThrow(
      /fin_authorizations_active_imei/,
    );
    // One live use per proposal slot: the same (proposal, use) again is refused whatever the IMEI.
    await sql(url, "UPDATE fin_authorizations SET imei = '490154203237518'");
    await expect(sql(url, insert, ['auth_3', 'CANCELLED', 'prop_1'])).rejects.toThrow(
      /fin_authorizations_live_proposal_use/,
    );
  });
});

describe('fin-server-kit-migrate', () => {
  it('migrates the database named by --database-url or DATABASE_URL and reports the version', async () => {
    const url = await server.createDatabase();
    const first = await runCli(['--database-url', url]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`applied ${migrations.map((m) => m.version).join(', ')}`);
    const again = await runCli([], { DATABASE_URL: url });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`nothing to apply; schema version ${latest}`);
  });

  it('exits 2 with the usage when no database is given', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DATABASE_URL');
  });
});
