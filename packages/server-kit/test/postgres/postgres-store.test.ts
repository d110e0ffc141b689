// Runs the Store conformance suite on postgresStore(), against a real PostgreSQL the test starts on 127.0.0.1.
import { describeStoreConformance } from '@fin/server-kit/testing';
import { migratedStores } from './support/migrated-stores.js';

const stores = migratedStores('fin_migrated');
describeStoreConformance('postgresStore()', () => stores());
// As behind PgBouncer before 1.21 in transaction mode: every statement unnamed, parsed and planned per call.
describeStoreConformance('postgresStore({ preparedStatements: false })', () =>
  stores({ preparedStatements: false }),
);
