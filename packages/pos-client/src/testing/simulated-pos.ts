// The simulated partner POS: one `(request: Request) => Promise<Response>` core over a seeded data set, with its controls.
import {
  type Clock,
  endpoints,
  type Plan,
  type StockReservation,
  type Store,
  schemas,
  systemClock,
} from '@fin/core';
import { createAuth, type SimulatedClient } from './auth.js';
import { applyContractBreaks } from './contract-breaks.js';
import {
  type CatalogControls,
  createControls,
  defaultPartnerVariants,
  type EmployeeControls,
  type PartnerControls,
  type PartnerVariants,
  type SaleControls,
} from './controls.js';
import {
  type CatalogEntry,
  createDataset,
  type DatasetSize,
  defaultSize,
  type SimulatedDevice,
  type SimulatedSale,
  type SimulatedSeller,
} from './data/dataset.js';
import { type Addressed, endpointOf, type PosOperation } from './endpoints.js';
import { createFaults, type FaultControls, type FaultPlan } from './faults.js';
import { createSlidingWindow } from './rate-limit.js';
import { createRequestLog, type RequestLog } from './request-log.js';
import { createReservationBook } from './reservations/book.js';
import { type ExchangeContext, fail, failToken, malformed, noStore, plain } from './respond.js';
import {
  listEmployees,
  listPlans,
  listProducts,
  listServices,
  listStores,
  productByBarcode,
} from './routes/catalog.js';
import type { Exchange, LoginShape, Route, SimulationState } from './routes/exchange.js';
import { stockOf, validateImei } from './routes/inventory.js';
import {
  createStockReservation,
  extendStockReservation,
  getStockReservation,
  releaseStockReservation,
} from './routes/reservations.js';
import { searchSales } from './routes/sales.js';
import { sellerSession } from './routes/sellers.js';

export interface SimulatedPosOptions {
  /** Same seed, same partner: every id, name, price and IMEI. Default 1. */
  seed?: number;
  /** Default `{ stores: 3, productsPerStore: 300, employees: 300 }` (smartphones: 1 in 50, at least 10). */
  size?: Partial<DatasetSize>;
  /** Applications allowed to call; default one: `sim.credentials`. */
  clients?: SimulatedClient[];
  /** The simulation's clock: token and session expiry, rate-limit windows, timestamps. Default the real one. */
  clock?: Clock;
  /**
   * Server-side limits per client_id over a sliding window: `reads` for every call but the token
   * endpoint (default 600), `tokens` for token issuance (default 60), `tokenFailures` for failed token
   * authentications (default 30), `windowMs` (default 60 000). As the service does (DESIGN 16), a failure
   * spends only the failure budget (one per client_id, one shared by every unknown id), never the
   * issuances: wrong secrets never lock the right one out. `false` turns them off.
   */
  rateLimit?: { reads?: number; tokens?: number; tokenFailures?: number; windowMs?: number } | false;
  /** Seller-session response shape: (a) `status-wrapped` SellerAuthResult (default) or (b) `flat` SellerSession. */
  loginShape?: LoginShape;
  /** How this partner reads the spec where it is open: stock field name, sale 404 code, request ids, IMEI messages. */
  partner?: Partial<PartnerVariants>;
  /** System token lifetime, default 3600 s (spec section 8). */
  tokenTtlSeconds?: number;
  /** Seller session lifetime, default 8 h (the spec leaves it to the partner). */
  sessionTtlSeconds?: number;
}

/** Read access to the seeded data set, live: mutations through the controls show here at once. */
export interface SimulatedData {
  readonly stores: readonly Store[];
  readonly plans: readonly Plan[];
  /** Active employees with their login credentials (`cpf` or `username`, and `password`). */
  readonly sellers: readonly SimulatedSeller[];
  /** The catalog of one store, in SKU order: product (no stock), barcode, plans listing it, stock. */
  products(storeId: string): readonly CatalogEntry[];
  /** Handsets by IMEI; filter by store and by whether they are on the shelf. */
  devices(filter?: { storeId?: string; inStock?: boolean }): SimulatedDevice[];
  readonly sales: readonly SimulatedSale[];
}

export interface SimulatedPos {
  /**
   * The whole partner as one Web-standard handler: give it to msw (`simulatedPosHandlers`), a node:http
   * adapter, or straight to a client as its `fetch` (it takes what `fetch` takes).
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** `clientId` and `clientSecret` of the first client, for `new PosClient(...)`. */
  readonly credentials: { clientId: string; clientSecret: string };
  readonly data: SimulatedData;
  readonly employees: EmployeeControls;
  readonly catalog: CatalogControls;
  readonly sales: SaleControls;
  /** The partner's readings of the spec where it is open; change them mid-test to play another partner. */
  readonly partner: PartnerControls;
  readonly faults: FaultControls;
  readonly requests: RequestLog;
  /** The response shape of the next seller logins. */
  setLoginShape(shape: LoginShape): void;
  /** Tokens issued so far: `expire` them (`expired_token`) or `revoke` them (`invalid_token`). */
  readonly tokens: { expire(): void; revoke(): void };
  /** Stock holds (v1.1) as the partner keeps them, settled on the simulation's clock (expired ones read `EXPIRED`). */
  readonly reservations: { list(): StockReservation[] };
}

export const defaultSimulatedClient: Readonly<SimulatedClient> = Object.freeze({
  clientId: 'financing-service',
  clientSecret: 'simulated-partner-secret',
});

/** Every endpoint but the token's, which the simulation answers before any bearer exists. */
type ApiOperation = Exclude<PosOperation, 'issueToken'>;

/** Which route serves each endpoint of the registry. */
const routes: Record<ApiOperation, Route> = {
  createSellerSession: sellerSession,
  listEmployees,
  listStores,
  listPlans,
  listProducts,
  getProductByBarcode: productByBarcode,
  listServices,
  getStock: stockOf,
  validateImei,
  searchSales,
  createStockReservation,
  getStockReservation,
  extendStockReservation,
  releaseStockReservation,
};

/** Waits `ms`; resolves `false` early when the caller gives up (the request's signal aborts). */
const wait = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** What the log records for a request its client abandoned during a slow answer (nginx's 499). */
const CLIENT_CLOSED_REQUEST = 499;

/** A path the partner has not (404), or a method its path has not: 405 with `Allow` (RFC 9110 15.5.6). */
function refuse(context: ExchangeContext, addressed: Extract<Addressed, { operation: 'unknown' }>) {
  if (addressed.code === 'not_found') return fail(context, 'not_found');
  return fail(context, 'method_not_allowed', { headers: { Allow: addressed.allow } });
}

export function createSimulatedPos(options: SimulatedPosOptions = {}): SimulatedPos {
  const clock = options.clock ?? systemClock;
  const clients = options.clients ?? [defaultSimulatedClient];
  const dataset = createDataset(options.seed ?? 1, defaultSize(options.size));
  const state: SimulationState = {
    dataset,
    reservations: { book: createReservationBook(dataset), replays: new Map() },
    loginShape: options.loginShape ?? 'status-wrapped',
    sessionTtlSeconds: options.sessionTtlSeconds ?? 8 * 3600,
    variants: { ...defaultPartnerVariants, ...options.partner },
  };
  const auth = createAuth({ clients, tokenTtlSeconds: options.tokenTtlSeconds ?? 3600 });
  const limits = options.rateLimit === false ? undefined : (options.rateLimit ?? {});
  const windowMs = limits?.windowMs ?? 60_000;
  const readLimit = limits && createSlidingWindow(limits.reads ?? endpoints.perMinuteOf.read, windowMs);
  const tokenLimit = limits && createSlidingWindow(limits.tokens ?? endpoints.perMinuteOf.token, windowMs);
  const failureLimit =
    limits && createSlidingWindow(limits.tokenFailures ?? endpoints.TOKEN_FAILURES_PER_MINUTE, windowMs);
  const faults = createFaults();
  const requests = createRequestLog();
  const controls = createControls(
    state.dataset,
    state.variants,
    () => clock.now(),
    (imei) => state.reservations.book.commit(imei, clock.now()),
  );

  /** `Retry-After` seconds when `key` is over `limiter`'s budget; a request let through takes a slot. */
  const overLimit = (limiter: typeof readLimit, key: string | undefined, nowMs: number) => {
    const verdict = limiter?.take(key ?? 'anonymous', nowMs);
    return verdict && !verdict.allowed ? { 'Retry-After': String(verdict.retryAfterSeconds) } : undefined;
  };

  /** Faults, content type, client authentication (Basic or form), issuance limit per client_id, then the grant. */
  const answerToken = async ({ request, context }: Exchange, plan: FaultPlan) => {
    if (plan.serverError) return failToken(context, 'service_unavailable', { status: plan.serverError });
    if (plan.malformedJson) return malformed(context);
    if (!(request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
      return failToken(context, 'bad_request', { description: 'send the token request form-encoded' });
    }
    const form = new URLSearchParams(await request.text());
    const credentials = endpoints.clientCredentialsOf(request.headers.get('authorization'), form);
    if (!credentials.ok) return failToken(context, 'bad_request', { description: credentials.description });
    // The budget it spends (endpoints.tokenBudgetKey, shared with server-kit): issuances only when authenticated.
    const authenticated = auth.authenticate(credentials);
    const budget = authenticated === 'authenticated' ? tokenLimit : failureLimit;
    const key = endpoints.tokenBudgetKey(credentials.clientId ?? '', authenticated);
    const headers = overLimit(budget, key, context.now.getTime());
    if (headers) return failToken(context, 'rate_limit_exceeded', { headers });
    const outcome = auth.issue(form, credentials, context.now.getTime());
    if (outcome.ok) return plain(context, outcome.body);
    // RFC 6749 5.2: a client that tried HTTP Basic is told which scheme to use again.
    const challenge =
      outcome.code === 'invalid_client' && credentials.method === 'client_secret_basic'
        ? { 'WWW-Authenticate': 'Basic realm="partner-pos"' }
        : undefined;
    return failToken(context, outcome.code, { description: outcome.description, headers: challenge });
  };

  /** Read limit, faults, request ids, bearer and scope, then the route: the order a gateway checks in. */
  const answerApi = (exchange: Exchange, operation: ApiOperation, plan: FaultPlan) => {
    const { request, context } = exchange;
    const nowMs = context.now.getTime();
    const headers = overLimit(readLimit, auth.clientOf(request.headers.get('authorization')), nowMs);
    if (headers) return fail(context, 'rate_limit_exceeded', { headers });
    if (plan.serverError) {
      return fail(context, plan.serverError === 503 ? 'service_unavailable' : 'internal_error', {
        status: plan.serverError,
      });
    }
    if (plan.malformedJson) return malformed(context);
    const ids = [request.headers.get('x-request-id'), request.headers.get('x-correlation-id')];
    if (!ids.every((id) => schemas.uuid.safeParse(id).success)) return fail(context, 'invalid_request_id');
    const { scopes } = endpoints.partnerPos[operation];
    const bearer = auth.verify(request.headers.get('authorization'), scopes, nowMs);
    if (!bearer.ok) return fail(context, bearer.code);
    return routes[operation](exchange);
  };

  const answer = async (exchange: Exchange, operation: PosOperation) => {
    const plan = faults.planFor(endpoints.endpointName(endpoints.partnerPos[operation]));
    if (plan.delayMs > 0 && !(await wait(plan.delayMs, exchange.request.signal))) {
      return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    }
    return operation === 'issueToken' ? answerToken(exchange, plan) : answerApi(exchange, operation, plan);
  };

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const context: ExchangeContext = {
      // A partner that does not echo `X-Request-Id` answers with an id of its own.
      requestId: state.variants.echoRequestId
        ? (request.headers.get('x-request-id') ?? undefined)
        : globalThis.crypto.randomUUID(),
      startedAt: performance.now(),
      now: clock.now(),
    };
    const url = new URL(request.url);
    const addressed = endpointOf(request.method, url.pathname);
    const answered =
      addressed.operation === 'unknown'
        ? refuse(context, addressed)
        : await answer({ request, query: url.searchParams, context, state }, addressed.operation);
    // Before the contract breaks, so a break such as 'token-cacheable' still has the last word.
    if (addressed.atTokenPath) noStore(answered);
    const { operation } = addressed;
    const response = await applyContractBreaks(faults.contractBreaks, operation, request, answered, context);
    requests.record({
      endpoint: operation === 'unknown' ? 'unknown' : endpoints.endpointName(endpoints.partnerPos[operation]),
      status: response.status,
      clientId: auth.clientOf(request.headers.get('authorization')),
      at: context.now.toISOString(),
    });
    return response;
  };

  return {
    fetch,
    credentials: { clientId: clients[0]!.clientId, clientSecret: clients[0]!.clientSecret },
    data: {
      get stores() {
        return dataset.stores;
      },
      get plans() {
        return dataset.plans;
      },
      get sellers() {
        return dataset.sellers;
      },
      products: (storeId) => [...(dataset.catalog.get(storeId)?.values() ?? [])],
      devices: (filter = {}) =>
        [...dataset.devices.values()].filter(
          (device) =>
            (filter.storeId === undefined || device.storeId === filter.storeId) &&
            (filter.inStock === undefined || device.inStock === filter.inStock),
        ),
      get sales() {
        return dataset.sales;
      },
    },
    ...controls,
    faults: faults.controls,
    requests: requests.log,
    setLoginShape: (shape) => {
      state.loginShape = shape;
    },
    tokens: {
      expire: () => auth.expireAll(clock.now().getTime()),
      revoke: () => auth.revokeAll(),
    },
    reservations: { list: () => state.reservations.book.all(clock.now()) },
  };
}
