// createWebhookHandler: a Fetch-API receiver, `(request: Request) => Promise<Response>`, for Hono, Workers, Next.js, Deno, Bun.
import { answerWebhook, type WebhookAnswer, type WebhookHandlerOptions } from './answer.js';
import { readLimited, tooLarge, unreadable } from './body-limit.js';

/**
 * A receiver of contract-status webhooks: reads the raw body itself (so no JSON middleware can spoil the
 * signature), verifies it, calls `onEvent` and answers 204; refusals are 400/401 with `{ error: code }`.
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    let answer: WebhookAnswer;
    try {
      const rawBody = request.body ? await readLimited(streamChunks(request.body)) : new Uint8Array();
      answer = rawBody ? await answerWebhook(rawBody, request.headers, options) : tooLarge;
    } catch {
      // The body stream failed (the peer reset mid-body): an answer, never a rejection for the host to meet.
      answer = unreadable;
    }
    return new Response(answer.body || null, {
      status: answer.status,
      ...(answer.body && { headers: { 'content-type': 'application/json' } }),
    });
  };
}

/** The chunks of a web stream, released when the reader stops early (a body over the ceiling). */
async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
