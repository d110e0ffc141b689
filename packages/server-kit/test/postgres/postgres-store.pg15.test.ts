// Runs the Store conformance suite on postgresStore() against Debian's PostgreSQL 15 (the oldest we support), beside postgres-store.test.ts on the embedded 18.
import { describeStoreConformance } from '@fin/server-kit/testing';
import { migratedStores } from './support/migrated-stores.js';

const stores = migratedStores('fin_migrated_15', 15);
describeStoreConformance('postgresStore() on PostgreSQL 15', () => stores());
describeStoreConformance('postgresStore({ preparedStatements: false }) on PostgreSQL 15', () =>
  stores({ preparedStatements: false }),
);
