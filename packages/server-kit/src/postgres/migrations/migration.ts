// What one schema migration is: a version number, a name for people, the SQL that moves the schema one step, and what must run outside a transaction.

/** A statement that cannot run in a transaction (`CREATE INDEX CONCURRENTLY`), naming the index it builds. */
export interface OnlineStep {
  /** The index it makes: an invalid one left by an interrupted build is dropped and built again. */
  index: string;
  /** Idempotent (`IF NOT EXISTS`): a migration interrupted after its transaction runs it again. */
  sql: string;
}

export interface Migration {
  /** 1, 2, 3 ...: applied in order, each exactly once, recorded in `fin_schema_migrations`. */
  version: number;
  name: string;
  /** Runs in one transaction: it applies whole or not at all. With `online` steps, it must be idempotent. */
  sql: string;
  /** Run one by one after `sql` commits, before the version is recorded, while the service keeps writing. */
  online?: readonly OnlineStep[];
}
