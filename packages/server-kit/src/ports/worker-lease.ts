// WorkerLease: a worker's hold on the records a store listing returns, shared by every listing port.

/**
 * A worker's hold on the records a listing returns: while `until` is ahead, no listing that carries a
 * lease returns them again, whichever instance asks (`FOR UPDATE SKIP LOCKED` and a lease column in
 * PostgreSQL). Several instances may so run one worker at once without searching the same sale twice;
 * the writes themselves stay compare-and-set. A lease that ends (a crashed instance) frees its records.
 */
export interface WorkerLease {
  /** Which worker instance took them (for operators). */
  owner: string;
  now: Date;
  until: Date;
}
