// The checker's HTTP side: sends one request to a Partner POS endpoint of the registry and records the exchange as seen.
import { endpoints } from '@fin/core';
import { readBody } from '@fin/core/transport';

/** An operationId of the Partner POS API in the registry. */
export type PosOperation = keyof endpoints.PartnerPosEndpoints;

/** One request sent and the answer as received: what every check reads. */
export interface Exchange {
  /** The check that sent it. */
  check: string;
  operation: PosOperation;
  /** `GET /v1/stock`. */
  endpoint: string;
  /** The `X-Request-Id` sent. */
  requestId: string;
  /** Sent with a system token issued to this client: what a partner counts against its read budget. */
  clientToken: boolean;
  status: number;
  headers: Headers;
  /** The parsed JSON body; `undefined` when the body is not JSON (`bodyText` then holds its start). */
  body: unknown;
  bodyText: string;
  sentAt: number;
}

export interface SendOptions {
  query?: Record<string, string | number | undefined>;
  /** The `{name}` parts of the endpoint's path (`reservationId`). */
  params?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A form body (the token endpoint). */
  form?: Record<string, string | undefined>;
  /** `Authorization` value: default `Bearer <the session token>`; `null` sends none. */
  authorization?: string | null;
  /** With `authorization`: it carries a token issued to this client (counted against its budget). */
  clientToken?: boolean;
  headers?: Record<string, string>;
}

export interface Probe {
  send(operation: PosOperation, options?: SendOptions): Promise<Exchange>;
  /** Every exchange so far, oldest first. */
  readonly exchanges: readonly Exchange[];
  /** Sets the system token later calls carry by default. */
  useToken(token: string): void;
  /** The check later sends are attributed to. */
  attribute(check: string): void;
}

const api = endpoints.partnerPos;

/** A partner that does not answer in this time fails the check that asked (the clients' own default). */
const REQUEST_TIMEOUT_MS = 10_000;
/** An answer larger than this is cut: the checker reads envelopes, not downloads. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export function createProbe(
  baseUrl: string,
  fetchImpl: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
): Probe {
  const root = baseUrl.replace(/\/+$/, '');
  const correlationId = crypto.randomUUID();
  const exchanges: Exchange[] = [];
  let token: string | undefined;
  let check = 'setup';

  const send = async (operation: PosOperation, options: SendOptions = {}): Promise<Exchange> => {
    const endpoint = api[operation];
    const url = new URL(`${root}${endpoints.endpointPath(endpoint, options.params)}`);
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const requestId = crypto.randomUUID();
    const headers = new Headers({
      Accept: 'application/json',
      'X-Request-Id': requestId,
      'X-Correlation-Id': correlationId,
      ...options.headers,
    });
    const authorization =
      options.authorization === undefined ? token && `Bearer ${token}` : options.authorization;
    if (authorization) headers.set('Authorization', authorization);
    let body: string | undefined;
    if (options.form) {
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
      const form = Object.entries(options.form).filter(([, v]) => v !== undefined) as [string, string][];
      body = new URLSearchParams(form).toString();
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    const sentAt = Date.now();
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await fetchImpl(url, { method: endpoint.method, headers, body, signal });
    const bodyText = await readBody(response, MAX_BODY_BYTES, signal);
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      parsed = undefined;
    }
    const exchange: Exchange = {
      check,
      operation,
      endpoint: endpoints.endpointName(endpoint),
      requestId,
      clientToken: options.authorization === undefined ? token !== undefined : (options.clientToken ?? false),
      status: response.status,
      headers: response.headers,
      body: parsed,
      bodyText: bodyText.slice(0, 200),
      sentAt,
    };
    exchanges.push(exchange);
    return exchange;
  };

  return {
    send,
    exchanges,
    useToken: (value) => {
      token = value;
    },
    attribute: (value) => {
      check = value;
    },
  };
}
