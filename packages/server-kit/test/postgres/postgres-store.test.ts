// Runs the Store conformance suite on postgresStore(), against a real PostgreSQL the test starts on 127.0.0.1.
import { describeStoreConformance } from '@fin/server-kit/testing';
import { migratedStores } from './support/migrated-stores.js';

describeStoreConformance('postgresStore()', migratedStores('fin_migrated'));
