// Issue 30 §4 on the memory store: the holds the service makes, through its public API, against the simulated partner POS.
import { memoryStore } from '@fin/server-kit';
import { describeHoldJourneys } from './support/hold-journeys.js';

describeHoldJourneys('memoryStore()', () => memoryStore());
