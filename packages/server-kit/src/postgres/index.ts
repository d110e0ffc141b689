// PostgreSQL store for @fin/server-kit.
export {};
