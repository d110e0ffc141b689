// Deliberate contract breaks of the simulated partner, one per rule a conformance check (fin-pos-check) guards: each rewrites answers the way a partner gets it wrong.
import { cnpj } from '@fin/core';
import type { PosOperation } from './endpoints.js';
import { type ExchangeContext, fail, ok } from './respond.js';

/** The answer being rewritten: its JSON body (undefined when not JSON), status and headers, all mutable. */
interface Answer {
  operation: PosOperation | 'unknown';
  request: Request;
  status: number;
  headers: Headers;
  body: unknown;
  /** What earlier answers of this partner left for a break that needs it (the holds already released). */
  memory: Set<string>;
}

// biome-ignore lint/suspicious/noExplicitAny: a break rewrites whatever JSON the route answered.
type Json = Record<string, any>;
/** Rewrites `answer` in place, or returns a whole other response. */
type Rewrite = (
  answer: Answer & { body: Json | undefined },
  context: ExchangeContext,
) => Response | undefined;

const productsOf = (answer: Answer & { body: Json | undefined }): Json[] => {
  const data = answer.body?.data;
  if (!data) return [];
  if (answer.operation === 'listProducts') return data.products ?? [];
  if (answer.operation === 'getProductByBarcode') return [data];
  return [];
};

function* objectsIn(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const item of value) yield* objectsIn(item);
  else if (typeof value === 'object' && value !== null) {
    yield value as Json;
    for (const item of Object.values(value)) yield* objectsIn(item);
  }
}

/** Each break, named for what the partner does wrong. */
const rewrites = {
  /** The token answer's `token_type` is `mac`. */
  'token-type-mac': (answer) => {
    if (answer.operation === 'issueToken' && answer.status === 200 && answer.body)
      answer.body.token_type = 'mac';
    return undefined;
  },
  /** Token answers go out without `Cache-Control: no-store`. */
  'token-cacheable': (answer) => {
    if (answer.operation === 'issueToken') answer.headers.delete('cache-control');
    return undefined;
  },
  /** HTTP Basic client authentication is refused (only client_secret_post works). */
  'basic-auth-refused': (answer) => {
    const basic = /^basic\s/i.test(answer.request.headers.get('authorization') ?? '');
    if (answer.operation !== 'issueToken' || !basic || !answer.body) return undefined;
    answer.status = 401;
    answer.body = {
      error: 'invalid_client',
      error_description: 'send client_id and client_secret in the form',
    };
    return undefined;
  },
  /** A wrong client secret is answered 400 `invalid_request`. */
  'invalid-client-400': (answer) => {
    if (answer.operation === 'issueToken' && answer.body?.error === 'invalid_client') {
      answer.status = 400;
      Object.assign(answer.body, { error: 'invalid_request', code: 'bad_request' });
    }
    return undefined;
  },
  /** A failed seller login is a 401. */
  'failed-login-401': (answer, context) =>
    answer.operation === 'createSellerSession' && answer.body?.data?.authorized === false
      ? fail(context, 'invalid_token', { message: 'Login inválido.' })
      : undefined,
  /** A call without storeId is a 422 `validation_error` instead of R-01's 400. */
  'store-context-422': (answer, context) =>
    answer.body?.error?.code === 'store_context_required'
      ? fail(context, 'validation_error', { details: [{ field: 'storeId', issue: 'Required' }] })
      : undefined,
  /** Without pageSize, pages hold 20 items. */
  'page-size-default-20': (answer) => {
    const data = answer.body?.data;
    if (!data?.pagination || new URL(answer.request.url).searchParams.has('pageSize')) return undefined;
    const list = Object.keys(data).find((key) => key !== 'pagination')!;
    data[list] = data[list].slice(0, 20);
    data.pagination.pageSize = 20;
    data.pagination.totalPages = Math.ceil(data.pagination.totalItems / 20);
    return undefined;
  },
  /** An out-of-bounds `page` or `pageSize` crashes the list: HTTP 500. */
  'page-bounds-crash': (answer, context) =>
    answer.body?.error?.code === 'validation_error' &&
    ['listEmployees', 'listStores', 'listProducts'].includes(answer.operation)
      ? fail(context, 'internal_error')
      : undefined,
  /** `totalPages` one more than the pages there are. */
  'total-pages-off-by-one': (answer) => {
    const pagination = answer.body?.data?.pagination;
    if (pagination) pagination.totalPages += 1;
    return undefined;
  },
  /** A page past the end is a 404 instead of an empty page. */
  'page-after-last-404': (answer, context) => {
    const pagination = answer.body?.data?.pagination;
    return pagination && pagination.page > pagination.totalPages
      ? fail(context, 'resource_not_found', { message: 'Página inexistente.' })
      : undefined;
  },
  /** Amounts as decimal text of reais: `"899.90"`. */
  'money-as-decimal-text': (answer) => {
    for (const object of objectsIn(answer.body?.data)) {
      if (typeof object.amount === 'number' && object.currency === 'BRL') {
        object.amount = `${Math.trunc(object.amount / 100)}.${String(object.amount % 100).padStart(2, '0')}`;
      }
    }
    return undefined;
  },
  /** Products carry a `color`. */
  'color-attribute': (answer) => {
    for (const product of productsOf(answer)) product.color = 'Preto';
    return undefined;
  },
  /** The barcode lookup serves smartphones only: an accessory's barcode is a 404. */
  'barcode-smartphones-only': (answer, context) =>
    answer.operation === 'getProductByBarcode' &&
    answer.body?.data &&
    answer.body.data.productType !== 'SMARTPHONE'
      ? fail(context, 'resource_not_found', { message: 'Código de barras não encontrado.' })
      : undefined,
  /** Services carry a barcode. */
  'services-with-barcode': (answer) => {
    if (answer.operation !== 'listServices') return undefined;
    for (const [index, service] of (answer.body?.data?.services ?? []).entries())
      service.barcode = `78999${String(index).padStart(8, '0')}`;
    return undefined;
  },
  /** `GET /v1/stock` answers for another store than the one asked. */
  'stock-of-another-store': (answer) => {
    const data = answer.body?.data;
    if (answer.operation === 'getStock' && data) data.storeId = `${data.storeId}-X`;
    return undefined;
  },
  /** An IMEI failing its check digit is reported valid and in stock. */
  'imei-check-digit-ignored': (answer) => {
    const data = answer.body?.data;
    if (answer.operation === 'validateImei' && data?.imeiValid === false)
      Object.assign(data, { imeiValid: true, inStock: true, message: 'Aparelho disponível para venda.' });
    return undefined;
  },
  /** Sale search reads the CPF from the URL query, not from the JSON body. */
  'sale-search-query-only': (answer, context) => {
    const query = new URL(answer.request.url).searchParams;
    return answer.operation === 'searchSales' && !query.has('taxId') && !query.has('imei')
      ? fail(context, 'validation_error', { details: [{ field: 'taxId', issue: 'required in the query' }] })
      : undefined;
  },
  /** A missing or unknown token is a 403. */
  'auth-errors-403': (answer) => {
    if (['missing_token', 'invalid_token'].includes(answer.body?.error?.code)) answer.status = 403;
    return undefined;
  },
  /** Envelope timestamps without milliseconds. */
  'timestamp-without-millis': (answer) => {
    if (typeof answer.body?.timestamp === 'string')
      answer.body.timestamp = answer.body.timestamp.replace(/\.\d+Z$/, 'Z');
    return undefined;
  },
  /** Envelopes without `requestId`. */
  'request-id-missing': (answer) => {
    if (answer.body) delete answer.body.requestId;
    return undefined;
  },
  /** No `X-Processing-Time-Ms` header. */
  'processing-time-missing': (answer) => {
    answer.headers.delete('x-processing-time-ms');
    return undefined;
  },
  /** Store CNPJs with their mask (`12.345.678/0001-95`) in `GET /v1/stores`. */
  'store-cnpj-masked': (answer) => {
    if (answer.operation !== 'listStores') return undefined;
    for (const store of answer.body?.data?.stores ?? []) store.cnpj = cnpj.format(store.cnpj);
    return undefined;
  },
  /** 429 answers without `Retry-After`. */
  'retry-after-missing': (answer) => {
    if (answer.status === 429) answer.headers.delete('retry-after');
    return undefined;
  },
  /** A create retried with its Idempotency-Key answers another hold than the first. */
  'reservation-replay-new-hold': (answer) => {
    const data = answer.body?.data;
    if (answer.operation === 'createStockReservation' && answer.headers.has('idempotent-replayed') && data)
      data.reservationId = `${data.reservationId}-AGAIN`;
    return undefined;
  },
  /** A second hold of an IMEI already held is accepted. */
  'imei-double-hold': (answer, context) =>
    answer.body?.error?.code === 'imei_already_reserved'
      ? ok(context, {
          reservationId: 'RSV-DOUBLE',
          storeId: new URL(answer.request.url).searchParams.get('storeId'),
          state: 'ACTIVE',
          sku: 'SM-DOUBLE',
          quantity: 1,
          createdAt: context.now.toISOString(),
          expiresAt: new Date(context.now.getTime() + 1_800_000).toISOString(),
        })
      : undefined,
  /** `ttlSeconds` is ignored: every hold lasts 30 minutes. */
  'reservation-ttl-ignored': (answer) => {
    const data = answer.body?.data;
    if (answer.operation === 'createStockReservation' && answer.status === 200 && data?.createdAt)
      data.expiresAt = new Date(Date.parse(data.createdAt) + 1_800_000).toISOString();
    return undefined;
  },
  /** Releasing a hold already released is a 409 instead of its current state. */
  'release-twice-conflict': (answer, context) => {
    const id = answer.body?.data?.reservationId;
    if (answer.operation !== 'releaseStockReservation' || answer.status !== 200 || !id) return undefined;
    if (answer.memory.has(id)) return fail(context, 'reservation_not_active');
    answer.memory.add(id);
    return undefined;
  },
} satisfies Record<string, Rewrite>;

/** A deliberate break of the contract, for testing a conformance check: `sim.faults.breakContract('token-cacheable')`. */
export type ContractBreak = keyof typeof rewrites;

export const contractBreaks = Object.keys(rewrites) as ContractBreak[];

/** Per partner (its set of active breaks): what its breaks remember between answers. */
const memories = new WeakMap<ReadonlySet<ContractBreak>, Set<string>>();

/** The response as the active breaks leave it (the same response when none is active). */
export async function applyContractBreaks(
  active: ReadonlySet<ContractBreak>,
  operation: Answer['operation'],
  request: Request,
  response: Response,
  context: ExchangeContext,
): Promise<Response> {
  if (active.size === 0) return response;
  const text = await response.text();
  let body: Json | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const headers = new Headers(response.headers);
  const memory = memories.get(active) ?? new Set<string>();
  memories.set(active, memory);
  const answer = { operation, request, status: response.status, headers, body, memory };
  for (const name of active) {
    const replaced = rewrites[name](answer, context);
    if (replaced) return replaced;
  }
  headers.delete('content-length');
  return new Response(answer.body === undefined ? text : JSON.stringify(answer.body), {
    status: answer.status,
    headers,
  });
}
