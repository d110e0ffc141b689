// A registry entry as the transport's request: method, filled path, rate class and the schema of the answer.
import type { RequestOptions } from '../transport/types.js';
import type { EndpointDefinition } from './endpoint.js';
import { endpointPath } from './path-template.js';

/** What a call sends beside the endpoint's own facts. */
export interface EndpointInput {
  params?: Readonly<Record<string, string>>;
  query?: RequestOptions<never>['query'];
  body?: unknown;
}

type EndpointRequest<E extends EndpointDefinition> = Pick<
  RequestOptions<E['response']['schema']>,
  'method' | 'path' | 'route' | 'rate' | 'schema' | 'query' | 'body'
>;

/**
 * The request of one call to `endpoint`: its method, path, rate class and response schema come from the
 * registry, so a client never restates them. Spread the caller's options (signal, correlationId) beside it.
 */
export function endpointRequest<E extends EndpointDefinition>(
  endpoint: E,
  input: EndpointInput = {},
): EndpointRequest<E> {
  return {
    method: endpoint.method,
    path: endpointPath(endpoint, input.params),
    route: endpoint.path,
    rate: endpoint.rate,
    schema: endpoint.response.schema,
    ...(input.query && { query: input.query }),
    ...(input.body !== undefined && { body: input.body }),
  };
}
