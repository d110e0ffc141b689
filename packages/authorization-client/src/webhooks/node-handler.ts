// createNodeWebhookHandler: the node:http form of the receiver, `(req, res)`, also mountable in Express and Fastify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookRawBody } from '@fin/core';
import { answerWebhook, type WebhookAnswer, type WebhookHandlerOptions } from './answer.js';
import { readLimited, tooLarge, unreadable } from './body-limit.js';

/** A request as node:http gives it, or as a framework left it (`body` set by a raw-body parser). */
type NodeRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

/**
 * The same receiver as `createWebhookHandler`, for node:http: reads the raw body from the request stream,
 * or takes the Buffer a raw parser left in `req.rawBody`/`req.body` (Express `express.raw`). A body some JSON
 * middleware already parsed into an object is answered 500 `webhook_body_parsed`, never verified.
 */
export function createNodeWebhookHandler(
  options: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // Never rejects: node:http does not catch a listener's promise, so one reset connection would end the process.
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    let answer: WebhookAnswer;
    try {
      const rawBody = await rawBodyOf(req);
      answer = rawBody === undefined ? tooLarge : await answerWebhook(rawBody, req.headers, options);
    } catch {
      // The peer reset or closed mid-body: there is nobody to answer, and nothing of it was handled.
      if (req.destroyed || res.destroyed) return;
      answer = unreadable;
    }
    if (res.destroyed || res.headersSent) return;
    res.writeHead(answer.status, answer.body ? { 'content-type': 'application/json' } : {}).end(answer.body);
  };
}

/** What the request holds, checked by the verifier (an object is `webhook_body_parsed`); undefined over the ceiling. */
async function rawBodyOf(req: NodeRequest): Promise<WebhookRawBody | undefined> {
  if (req.rawBody !== undefined) return req.rawBody as WebhookRawBody;
  if (req.body !== undefined) return req.body as WebhookRawBody;
  // Consumed by a middleware that kept nothing: the verifier answers webhook_body_parsed.
  if (req.readableEnded) return null as unknown as WebhookRawBody;
  return readLimited(req);
}
