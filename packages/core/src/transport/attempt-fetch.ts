// The fetch ky calls for one attempt: sends the attempt's known headers and body text with the call's signal.

/** What the transport already knows about one attempt, before ky builds its `Request`. */
export interface KnownAttempt {
  /** The injected `fetch`; the global one (read at call time, so msw and test doubles apply) when absent. */
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  body: string | URLSearchParams | undefined;
  /** The call's signal (caller abort, deadline, and this attempt's timeout once ky reports it). */
  signal: AbortSignal;
}

/**
 * ky turns a body into a `Request` stream, clones that `Request` for its own retries (off here), and undici
 * then reads the stream back chunk by chunk; tying the call's signal to ky's costs an `AbortSignal.any`. Both
 * cost more CPU than the call itself. ky is therefore given method and URL only: this fetch takes them from
 * ky's `Request` and sends the headers and body text the transport built (the same bytes) with the call's
 * signal. ky keeps its hooks and its timeout (the transport aborts the call's signal for the attempt when
 * ky reports one); its `Request`, which ky puts in its errors (the cause of a FinTimeoutError), never holds
 * the bearer token.
 */
export function attemptFetch(known: KnownAttempt): typeof fetch {
  const send = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input as Request;
    const sent: RequestInit = {
      ...init,
      method: request.method,
      headers: known.headers,
      body: known.body,
      signal: known.signal,
    };
    return known.fetch ? known.fetch(request.url, sent) : globalThis.fetch(request.url, sent);
  };
  return send as typeof fetch;
}
