// Runs the Store conformance suite on postgresStore(), against a real PostgreSQL the test starts on 127.0.0.1.
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { beforeAll } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { describeStoreConformance } from '../store-conformance.js';

const server = usePostgres();
const TEMPLATE = 'fin_migrated';

beforeAll(async () => {
  // Migrated once; every test gets a fresh copy of it, which PostgreSQL makes in milliseconds.
  await migrate({ connectionString: await server.createDatabase({ name: TEMPLATE }) });
});

describeStoreConformance('postgresStore()', async () =>
  postgresStore({ connectionString: await server.createDatabase({ template: TEMPLATE }) }),
);
