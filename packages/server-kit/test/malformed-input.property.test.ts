// Runs the malformed-input properties on memoryStore().
import { memoryStore } from '@fin/server-kit';
import { describeMalformedInput } from './malformed-input.js';

describeMalformedInput('memoryStore()', () => memoryStore());
