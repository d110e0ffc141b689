// @fin/server-kit/postgres: the Store on PostgreSQL for several service instances, and the schema migrations.
export { defaultPostgresTimeouts, type PostgresConnection, type PostgresTimeouts } from './connection.js';
export { type MigrateOptions, type MigrationReport, migrate } from './migrate.js';
export { type Migration, migrations } from './migrations/index.js';
export { type PostgresStoreOptions, postgresStore } from './postgres-store.js';
