// Test harness: a service on a manual clock with two partners, and helpers that speak HTTP to service.fetch.
import { randomUUID } from 'node:crypto';
import type { AuthorizeRequest, LogEntry, SaleStatus } from '@fin/core';
import {
  type ClientRegistration,
  createFinancingService,
  type FinancingServiceOptions,
  sandboxCreditEngine,
} from '@fin/server-kit';
import { cartFixture, deviceImei } from '@fin/server-kit/testing';

export const T0 = new Date('2026-03-02T15:00:00.000Z');
export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** A clock tests move by hand. */
export function manualClock(start = T0) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(date: Date) {
      now = date.getTime();
    },
  };
}

export { deviceImei };

export const CUSTOMER = '52998224725';
export const OTHER_CUSTOMER = '11144477735';

/** A cart of one smartphone (and optional services) whose totals add up (R-02 by construction). */
export function cart(
  options: {
    price?: number;
    services?: number[];
    imei?: string;
    clientTaxId?: string;
    storeId?: string;
  } = {},
): AuthorizeRequest {
  return cartFixture({
    price: options.price ?? 250_000,
    services: options.services,
    imei: options.imei ?? deviceImei(1),
    clientTaxId: options.clientTaxId ?? CUSTOMER,
    storeId: options.storeId ?? 'store-a1',
  });
}

export const confirmation = (invoicedAt: Date) => ({
  saleNumber: 'S-1001',
  invoiceNumber: 'NF-77',
  nfeAccessKey: '35260312345678000190550010000000771000000771',
  invoicedAt: invoicedAt.toISOString(),
});

export const PARTNER_A: ClientRegistration = {
  clientId: 'partner-a',
  clientSecret: 'secret-a',
  scopes: ['sales:authorize'],
  storeIds: ['store-a1', 'store-a2'],
};
export const PARTNER_B: ClientRegistration = {
  clientId: 'partner-b',
  clientSecret: 'secret-b',
  scopes: ['sales:authorize'],
  storeIds: ['store-b1'],
};

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  body: any;
}

export interface CallOptions {
  token?: string | null;
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
}

/** A service on a manual clock (give one to share it with a simulated POS) with partners A and B, a log sink, HTTP helpers. */
export function harness(options: Partial<FinancingServiceOptions> = {}, clock = manualClock()) {
  const logs: LogEntry[] = [];
  const sink = (entry: LogEntry) => logs.push(entry);
  const service = createFinancingService({
    clients: [PARTNER_A, PARTNER_B],
    credit: sandboxCreditEngine(),
    logger: { info: sink, warn: sink, error: sink },
    ...options,
    clock,
  });

  const read = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };

  const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    service
      .fetch(
        new Request('http://fin.test/v1/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams(form),
        }),
      )
      .then(read);

  /** A new token for a partner, issued now. */
  const freshToken = async (client: ClientRegistration = PARTNER_A, scope = 'sales:authorize') => {
    const answer = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope,
    });
    if (answer.status !== 200) throw new Error(`token: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.access_token as string;
  };
  const tokens = new Map<string, Promise<string>>();
  /** A token for a partner, issued once per partner and scope (renew with `freshToken` after an hour). */
  const token = (client: ClientRegistration = PARTNER_A, scope = 'sales:authorize') => {
    const cacheKey = `${client.clientId} ${scope}`;
    let cached = tokens.get(cacheKey);
    if (!cached) {
      cached = freshToken(client, scope);
      tokens.set(cacheKey, cached);
    }
    return cached;
  };

  /** POSTs JSON with fresh X-Request-Id / X-Correlation-Id / Idempotency-Key unless told otherwise. */
  const post = async (path: string, body: unknown, call: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-request-id': randomUUID(),
      'x-correlation-id': randomUUID(),
    };
    const bearer = call.token === undefined ? await token() : call.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const key = call.idempotencyKey === undefined ? randomUUID() : call.idempotencyKey;
    if (key !== null) headers['idempotency-key'] = key;
    return read(
      await service.fetch(
        new Request(`http://fin.test${path}`, {
          method: 'POST',
          headers: { ...headers, ...call.headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    );
  };

  /** GETs with fresh X-Request-Id / X-Correlation-Id and the partner's token unless told otherwise. */
  const get = async (path: string, call: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = {
      'x-request-id': randomUUID(),
      'x-correlation-id': randomUUID(),
    };
    const bearer = call.token === undefined ? await token() : call.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
    const request = new Request(`http://fin.test${path}`, { headers: { ...headers, ...call.headers } });
    return read(await service.fetch(request));
  };

  return {
    service,
    clock,
    logs,
    token,
    freshToken,
    tokenRequest,
    post,
    authorize: (body: unknown, call?: CallOptions) => post('/v1/sales/authorize', body, call),
    confirm: (id: string, body: unknown, call?: CallOptions) =>
      post(`/v1/sales/${encodeURIComponent(id)}/confirm`, body, call),
    cancel: (id: string, body: unknown, call?: CallOptions) =>
      post(`/v1/sales/${encodeURIComponent(id)}/cancel`, body, call),
    get,
    retrieve: (id: string, call?: CallOptions) => get(`/v1/sales/${encodeURIComponent(id)}`, call),
  };
}

/** A SaleSearch port double: answers what the test puts in `sales`, or fails while `down`. */
export function saleSearchDouble() {
  const state = { sales: [] as SaleStatus[], down: false, calls: 0 };
  return {
    state,
    saleSearch: {
      async search() {
        state.calls += 1;
        if (state.down) throw Object.assign(new Error('POS unreachable'), { code: 'connection_error' });
        return { sales: structuredClone(state.sales) };
      },
    },
  };
}
