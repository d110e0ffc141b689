// createHttpClient: a call is opened, then the retry loop runs attempts (with token replay) until one settles.
import type { z } from 'zod';
import { tokenPath } from '../endpoints/token.js';
import { tokenResponse } from '../schemas/index.js';
import { openCall } from './call-context.js';
import { retryLoop } from './retry-loop.js';
import { sendAttempt } from './send-attempt.js';
import { withTokenReplay } from './token-replay.js';
import { createTokenSource } from './token-source.js';
import { createTransport } from './transport.js';
import type { HttpClient, HttpClientOptions, HttpResult, RequestOptions } from './types.js';

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const transport = createTransport(options);

  async function request<S extends z.ZodType>(call: RequestOptions<S>): Promise<HttpResult<z.output<S>>> {
    const { context, close } = openCall(transport, call);
    const tokens = call.kind === 'token' ? undefined : tokensFor(transport.scopeOf(call.scopes));
    const attempt = () =>
      tokens
        ? withTokenReplay(transport, context, tokens, (token) =>
            sendAttempt<z.output<S>>(transport, context, token),
          )
        : sendAttempt<z.output<S>>(transport, context, undefined);
    try {
      return await retryLoop(transport, context, attempt);
    } finally {
      close();
    }
  }

  // The token endpoint is called through the same transport: pacing (its own class), retries, decoding.
  const tokensFor = createTokenSource(transport, async (scope) => {
    const { data } = await request({
      method: 'POST',
      path: options.tokenPath ?? tokenPath,
      kind: 'token',
      form: {
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: scope || undefined,
      },
      schema: tokenResponse,
    });
    return data;
  });

  return { request };
}
