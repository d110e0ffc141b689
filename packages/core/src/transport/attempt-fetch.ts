// The fetch ky calls for one attempt: sends the attempt's known body text and headers, aborted by ky or the call.

/** What the transport already knows about one attempt, before ky builds its `Request`. */
export interface KnownAttempt {
  /** The injected `fetch`; the global one (read at call time, so msw and test doubles apply) when absent. */
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  body: string | URLSearchParams | undefined;
  /** The call's own signal: the caller's abort and the overall deadline. */
  signal: AbortSignal;
}

export interface AttemptFetch {
  /** Handed to ky as its `fetch`. */
  fetch: typeof fetch;
  /** Detaches from the call's signal once the attempt's body is read. */
  release(): void;
}

/**
 * ky turns a body into a `Request` stream, clones that `Request` for its own retries (off here), and undici
 * then reads the stream back chunk by chunk; tying the call's signal to ky's costs an `AbortSignal.any`. Both
 * cost more CPU than the call itself. ky is therefore given method and URL only: this fetch takes them from
 * ky's `Request` and sends the headers and body text the transport built (the same bytes) with one signal
 * that ky's timeout and the call's signal both abort. ky keeps its timeout and hooks; its `Request`, which
 * ky puts in its errors (the cause of a FinTimeoutError), never holds the bearer token.
 */
export function attemptFetch(known: KnownAttempt): AttemptFetch {
  const link = new AbortController();
  const onCallAbort = () => link.abort(known.signal.reason);
  if (known.signal.aborted) onCallAbort();
  else known.signal.addEventListener('abort', onCallAbort, { once: true });

  const send = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input as Request;
    const onTimeout = () => link.abort(request.signal.reason);
    if (request.signal.aborted) onTimeout();
    else request.signal.addEventListener('abort', onTimeout, { once: true });
    const sent: RequestInit = {
      ...init,
      method: request.method,
      headers: known.headers,
      body: known.body,
      signal: link.signal,
    };
    return known.fetch ? known.fetch(request.url, sent) : globalThis.fetch(request.url, sent);
  };

  return {
    fetch: send as typeof fetch,
    release: () => known.signal.removeEventListener('abort', onCallAbort),
  };
}
