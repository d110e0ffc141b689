// createWebhookHandler: a Fetch-API receiver, `(request: Request) => Promise<Response>`, for Hono, Workers, Next.js, Deno, Bun.
import { answerWebhook, type WebhookHandlerOptions } from './answer.js';

/**
 * A receiver of contract-status webhooks: reads the raw body itself (so no JSON middleware can spoil the
 * signature), verifies it, calls `onEvent` and answers 204; refusals are 400/401 with `{ error: code }`.
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    const rawBody = new Uint8Array(await request.arrayBuffer());
    const answer = await answerWebhook(rawBody, request.headers, options);
    return new Response(answer.body || null, {
      status: answer.status,
      ...(answer.body && { headers: { 'content-type': 'application/json' } }),
    });
  };
}
