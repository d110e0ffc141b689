// createHttpClient: a call is opened, then the retry loop runs attempts (with token replay) until one settles.
import type { z } from 'zod';
import { tokenPath } from '../endpoints/token.js';
import { recordCall } from '../errors/fin-error.js';
import { isFinError } from '../errors/index.js';
import { tokenResponse } from '../schemas/index.js';
import { openCall } from './call-context.js';
import { traceCall } from './call-telemetry.js';
import { retryLoop } from './retry-loop.js';
import { sendAttempt } from './send-attempt.js';
import { withTokenReplay } from './token-replay.js';
import { createTokenSource } from './token-source.js';
import { createTransport } from './transport.js';
import type { HttpClient, HttpClientOptions, HttpResult, RequestOptions, SdkInfo } from './types.js';

/**
 * `sdk` names the package built on it in the `User-Agent`. Throws a FinInputError for `defaultHeaders`
 * naming a header of the SDK, or an `appInfo` that cannot travel in a header.
 */
export function createHttpClient(options: HttpClientOptions, sdk?: SdkInfo): HttpClient {
  const transport = createTransport(options, sdk);

  async function request<S extends z.ZodType>(call: RequestOptions<S>): Promise<HttpResult<z.output<S>>> {
    const { context, close } = openCall(transport, call);
    const tokens = call.rate === 'token' ? undefined : tokensFor(transport.scopeOf(call.scopes));
    const attempt = () =>
      tokens
        ? withTokenReplay(transport, context, tokens, (token) =>
            sendAttempt<z.output<S>>(transport, context, token),
          )
        : sendAttempt<z.output<S>>(transport, context, undefined);
    return traceCall(transport.telemetry, transport.baseUrl, context, async () => {
      try {
        return await retryLoop(transport, context, attempt);
      } catch (error) {
        // Whatever ended the call, the caller learns the key to call again with and every attempt's id.
        if (isFinError(error)) recordCall(error, context);
        throw error;
      } finally {
        close();
      }
    });
  }

  // The token endpoint is called through the same transport: pacing (its own class), retries, decoding.
  const tokensFor = createTokenSource(transport, async (scope) => {
    const { data } = await request({
      method: 'POST',
      path: options.tokenPath ?? tokenPath,
      rate: 'token',
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

  return { request, on: transport.events.on, off: transport.events.off };
}
