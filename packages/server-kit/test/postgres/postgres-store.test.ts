// Runs the Store conformance suite on postgresStore(), against the embedded PostgreSQL 18 the test starts on 127.0.0.1 (15: postgres-store.pg15.test.ts).
import { describeHoldStoreConformance, describeStoreConformance } from '@fin/server-kit/testing';
import { migratedStores } from './support/migrated-stores.js';

const stores = migratedStores('fin_migrated', 'embedded');
describeStoreConformance('postgresStore()', () => stores());
// As behind PgBouncer before 1.21 in transaction mode: every statement unnamed, parsed and planned per call.
describeStoreConformance('postgresStore({ preparedStatements: false })', () =>
  stores({ preparedStatements: false }),
);
describeHoldStoreConformance('postgresStore()', () => stores());
