// Runs the malformed-input properties on postgresStore(), against a real PostgreSQL the test starts on 127.0.0.1.
import { describeMalformedInput } from '../malformed-input.js';
import { migratedStores } from './support/migrated-stores.js';

describeMalformedInput('postgresStore()', migratedStores('fin_malformed'));
