// Which PostgreSQL and socket failures mean "the database is unavailable right now" (503, retry), not a bug (500).
import { StoreUnavailableError } from '../ports/store-unavailable.js';

/**
 * SQLSTATEs of a database that cannot serve us now: connection exceptions (class 08), too many
 * connections and other exhausted resources (class 53), the server shutting down or restarting
 * (57P01 admin, 57P02 crash, 57P03 cannot connect now), a cancelled statement (57014: our
 * `statement_timeout`), a lock not granted in time (55P03: our `lock_timeout`), and a deadlock or
 * serialization failure that outlived its retries (40001, 40P01).
 */
const UNAVAILABLE_STATES = /^(08...|53...|57P0[123]|57014|55P03|40001|40P01)$/;

/** Socket errors of a server that is down, unreachable or dropped us. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** pg's own messages when a connection cannot be had or dies (it sets no code on these). */
const PG_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /connection (?:is )?(?:closed|lost|ended)/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end/i,
];

/** The reason `error` shows the database unavailable, or `undefined` for any other failure. */
export function unavailableReason(error: unknown): string | undefined {
  if (error instanceof StoreUnavailableError) return error.reason;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || SOCKET_ERRORS.has(code))) return code;
  const message = (error as { message?: unknown })?.message;
  if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) {
    return /timeout/i.test(message) ? 'pool_timeout' : 'connection_lost';
  }
  return undefined;
}

/** `error` as a `StoreUnavailableError` when it means the database is unavailable; else `error` itself. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  const reason = unavailableReason(error);
  return reason ? new StoreUnavailableError(reason, { cause: error }) : error;
}
