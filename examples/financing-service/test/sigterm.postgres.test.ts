// Graceful shutdown end to end (issue 16 §2), from the sources; the packed packages meet it in test/release/sigterm.packed.test.ts.
import { usePostgres } from '../../../test/support/postgres.js';
import { describeSigtermDrain, sourcesBuild } from './sigterm-drain.js';

describeSigtermDrain(sourcesBuild, usePostgres());
