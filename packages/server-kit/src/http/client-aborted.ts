// A client that went away while its request body was still arriving: its own outcome, never a server failure.

/** Thrown by an adapter's `readBody` when the peer reset or closed the connection before the body ended. */
export class ClientAbortedError extends Error {
  override readonly name = 'ClientAbortedError';
  constructor() {
    super('the client closed the connection before its request body ended');
  }
}

export const isClientAborted = (error: unknown): error is ClientAbortedError =>
  error instanceof ClientAbortedError;

/** The outcome logged for it (`http.client_aborted`, info): nobody is left to read an answer. */
export const CLIENT_ABORTED = 'client_aborted';

/** The status recorded for it (nginx's "client closed request"): neither a 4xx of ours nor a 5xx. */
export const CLIENT_ABORTED_STATUS = 499;
