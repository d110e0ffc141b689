// Issue 30 §4 on postgresStore(): the stock-hold journeys against the simulated partner POS, on the embedded PostgreSQL the test starts on 127.0.0.1.
import { describeHoldJourneys } from '../support/hold-journeys.js';
import { migratedStores } from './support/migrated-stores.js';

const stores = migratedStores('fin_holds');
describeHoldJourneys('postgresStore()', () => stores());
