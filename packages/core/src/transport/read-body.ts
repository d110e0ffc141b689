// Reads a response body as text, at most `maxBytes` of it, ending as soon as the attempt's signal aborts.

/** The body outgrew its limit; the stream was cancelled, so the socket is released. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/** A promise that rejects with the signal's reason once it aborts; `off` stops listening. */
function abortion(signal: AbortSignal): { promise: Promise<never>; off: () => void } {
  let off = () => {};
  const promise = new Promise<never>((_, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    off = () => signal.removeEventListener('abort', onAbort);
  });
  promise.catch(() => {});
  return { promise, off };
}

/**
 * The whole body, decoded as UTF-8. Each chunk is awaited against the signal, so a peer that stalls or drips
 * after its headers cannot hold the read past the attempt's timer, whatever the fetch implementation does
 * with the signal. Over `maxBytes` (a `Content-Length` announcing more, or the bytes read), the stream is
 * cancelled and BodyTooLarge thrown.
 */
export async function readBody(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const announced = Number(response.headers.get('content-length'));
  const body = response.body;
  if (!body) return '';
  if (Number.isFinite(announced) && announced > maxBytes) {
    await body.cancel().catch(() => {});
    throw new BodyTooLarge();
  }
  const reader = body.getReader();
  const aborted = abortion(signal);
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted.promise]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new BodyTooLarge();
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join('');
  } catch (error) {
    // Cancelling tells the fetch implementation to drop the rest: the connection is not kept for a body nobody reads.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    aborted.off();
  }
}
