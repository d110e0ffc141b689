// Runs the contract's edges (issue 12) on postgresStore(), against a real PostgreSQL the test starts on 127.0.0.1.
import { describeContractEdges } from '../contract-edges.js';
import { migratedStores } from './support/migrated-stores.js';

describeContractEdges('postgresStore()', migratedStores('fin_edges'));
