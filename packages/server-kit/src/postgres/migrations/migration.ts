// What one schema migration is: a version number, a name for people, and the SQL that moves the schema one step.

export interface Migration {
  /** 1, 2, 3 ...: applied in order, each exactly once, recorded in `fin_schema_migrations`. */
  version: number;
  name: string;
  /** Runs in one transaction: it applies whole or not at all. */
  sql: string;
}
