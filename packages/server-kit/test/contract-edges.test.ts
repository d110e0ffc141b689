// Runs the contract's edges (issue 12) on memoryStore().
import { memoryStore } from '@fin/server-kit';
import { describeContractEdges } from './contract-edges.js';

describeContractEdges('memoryStore()', () => memoryStore());
