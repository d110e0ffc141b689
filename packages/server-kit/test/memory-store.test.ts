// Runs the Store conformance suite on memoryStore().
import { memoryStore } from '@fin/server-kit';
import { describeStoreConformance } from './store-conformance.js';

describeStoreConformance('memoryStore()', () => memoryStore());
