// A throwaway PostgreSQL on loopback for the bench, from the harness the tests use (test/support/postgres.ts).
import { migrate } from '@fin/server-kit/postgres';
import { startPostgres } from '../../test/support/postgres.js';

/** Starts a server, makes and migrates one fresh database, hands its URL to `use`, then stops the server. */
export async function withDatabase<T>(use: (connectionString: string) => Promise<T>): Promise<T> {
  const server = await startPostgres();
  try {
    const connectionString = await server.createDatabase();
    await migrate({ connectionString });
    return await use(connectionString);
  } finally {
    await server.stop();
  }
}
