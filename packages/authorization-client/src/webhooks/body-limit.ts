// The raw body of a delivery, read up to a ceiling: a receiver is a public URL and must not buffer whatever is posted.

/** The largest body a receiver reads: 1 MiB (an event is under 1 KiB). Larger is answered 413 unread. */
export const MAX_WEBHOOK_BODY_BYTES = 1_048_576;

/** The bytes of `chunks`, or undefined as soon as they pass `limit` (the rest is never read). */
export async function readLimited(
  chunks: AsyncIterable<Uint8Array | string>,
  limit = MAX_WEBHOOK_BODY_BYTES,
): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.length;
    if (size > limit) return undefined;
    parts.push(bytes);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  return body;
}

/** The answer to a body over the ceiling. */
export const tooLarge = { status: 413, body: JSON.stringify({ error: 'body_too_large' }) };

/** The answer to a body that could not be read to its end (the peer went away): the sender retries. */
export const unreadable = { status: 400, body: JSON.stringify({ error: 'body_unreadable' }) };
