// Soak (long variant of test/reliability/soak.test.ts): minutes of authorize load on the PostgreSQL store.
import type { Figure, Row } from '../lib/figure.js';

export const soak: Figure = {
  name: 'soak',
  title: 'Soak: authorize load on the PostgreSQL store, heap before and after, nothing lost',
  run: async (): Promise<Row[]> => [],
};
