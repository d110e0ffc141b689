// examples/financing-service with a connection string: migrates PostgreSQL and keeps its state there.
import type { PartnerPosServer } from '@fin/example-partner-pos';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../test/support/postgres.js';
import { startFinancingService } from '../src/index.js';
import { optionsFor, POS_VENDOR, smallPartner, tokenRequest } from './support.js';

const postgres = usePostgres();
let partner: PartnerPosServer;
beforeAll(async () => {
  partner = await smallPartner();
});
afterAll(() => partner.close());

describe('examples/financing-service on PostgreSQL', () => {
  it('migrates the database, stores the synced catalog and the issued tokens there, and closes its pool', async () => {
    const databaseUrl = await postgres.createDatabase();
    const running = await startFinancingService({ ...optionsFor(partner), databaseUrl });
    try {
      expect(running.storeKind).toBe('postgres');
      expect((await tokenRequest(running.url)).status).toBe(200);
    } finally {
      await running.close();
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const tokens = await client.query('SELECT client_id FROM fin_tokens');
      expect(tokens.rows).toEqual([{ client_id: POS_VENDOR.clientId }]);
      const catalogs = await client.query('SELECT count(*)::int AS n FROM fin_catalog_snapshots');
      expect(catalogs.rows).toEqual([{ n: 1 }]);
      // A closed connection leaves pg_stat_activity when its backend exits, a moment after the client.
      const openSessions = async () =>
        (
          await client.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'fin-server-kit'",
          )
        ).rows[0].n;
      await expect.poll(openSessions).toBe(0);
    } finally {
      await client.end();
    }
  });
});
