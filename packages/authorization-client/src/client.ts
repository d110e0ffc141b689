// AuthorizationClient: authorize, confirm, cancel and retrieve a financed sale over the shared @fin/core transport.
import {
  type AuthorizationState,
  type AuthorizeRequest,
  type CancelReason,
  type CancelResult,
  type ConfirmResult,
  endpoints,
  nfeKey,
} from '@fin/core';
import type { AuthorizeResult } from '@fin/core/schemas';
import type * as transport from '@fin/core/transport';
import {
  type ApiPromise,
  apiPromise,
  type ClientEventListener,
  type ClientEventName,
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type WithResponse,
  type WriteResult,
  withResponse,
  withWriteReceipt,
} from '@fin/core/transport';
import { v4 as uuidv4 } from 'uuid';
import { assertEnvironment, type Environment } from './environment.js';
import { isExpired } from './expiry.js';
import { invalidField, parseInput } from './input-error.js';
import { sdkInfo } from './sdk-info.js';

/**
 * The transport's options (`@fin/core/transport`): `baseUrl` (host root, paths carry `/v1`), `clientId`,
 * `clientSecret`, `fetch`, `timeoutMs` (per attempt, default 10 s), `deadlineMs` (whole call, default
 * 60 s), `maxRetries` (default 2), `backoff`, `rateLimit` (default the spec's 120 writes and 60 tokens a
 * minute; `false` turns pacing off), `logger` (entries pass through `redact`), `clock`, `random`,
 * `tokenPath`, `appInfo` (your app in the `User-Agent`), `defaultHeaders`; the scope is always `sales:authorize`.
 */
export interface AuthorizationClientOptions extends Omit<HttpClientOptions, 'scopes'> {
  /** Declared environment of `baseUrl`; a `test_`/`live_` client id of the other one is refused. */
  environment?: Environment;
}

/** `correlationId` (`journey()` sets it), `signal`, and `timeoutMs` / `maxRetries` / `headers` for this call only. */
export interface CallOptions extends transport.CallOptions {
  /**
   * Idempotency-Key of this business intention, a uuid v4 (`newIdempotencyKey()`); anything else is refused
   * before sending. Store it with the order before the first call: the same call with it after a crash
   * gets the original answer. Absent, one is made per call (see `idempotencyKey` on the result or error).
   */
  idempotencyKey?: string;
}

type Approved = Extract<AuthorizeResult, { authorized: true }>;
type Declined = Extract<AuthorizeResult, { authorized: false }>;

/** A positive authorization: the POS may invoice until `expiresAt`. */
export type AuthorizationApproved = Approved & { expiresAtDate: Date };
/** A credit refusal: a value, never an exception. */
export type AuthorizationDeclined = Declined;
export type AuthorizeOutcome = AuthorizationApproved | AuthorizationDeclined;

export interface ConfirmInput {
  /** The POS's number of the invoiced sale. */
  saleNumber: string;
  /** The invoice (NF-e) number. */
  invoiceNumber: string;
  /** The 44-character NF-e access key (check digit verified before sending). */
  nfeAccessKey: string;
  /** A Date, or an ISO 8601 string with its zone (`Z` or an offset); sent as `toISOString()`. */
  invoicedAt: Date | string;
}

export interface CancelInput {
  /** `EXCHANGE` marks an exchange: the next authorization of the same CPF and store may reuse the proposal. */
  reason: CancelReason;
  /** Free text about the cancellation, at most 500 characters. */
  description?: string;
  /** When the sale was cancelled in the POS: a Date or a zoned ISO 8601 string; sent as `toISOString()`. */
  cancelledAt?: Date | string;
}

/** The three calls of one sale, sharing one X-Correlation-Id. */
export interface Journey {
  readonly correlationId: string;
  authorize(
    cart: AuthorizeRequest,
    options?: Omit<CallOptions, 'correlationId'>,
  ): ApiPromise<WriteResult<AuthorizeOutcome>>;
  confirm(
    authorizationId: string,
    input: ConfirmInput,
    options?: Omit<CallOptions, 'correlationId'>,
  ): ApiPromise<WriteResult<ConfirmResult>>;
  cancel(
    authorizationId: string,
    input: CancelInput,
    options?: Omit<CallOptions, 'correlationId'>,
  ): ApiPromise<WriteResult<CancelResult>>;
}

const ZONED_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A Date or zoned ISO string as `toISOString()`; local time without zone is refused (spec section 1). */
function utcInstant(value: Date | string, field: string): string {
  const time =
    value instanceof Date ? value.getTime() : ZONED_ISO.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time))
    throw invalidField(field, 'must be a Date or an ISO 8601 date-time with Z or an offset');
  return new Date(time).toISOString();
}

const api = endpoints.salesAuthorization;

/** `{id}` of a call on one authorization. */
const onAuthorization = (authorizationId: string) => {
  if (!authorizationId) throw invalidField('authorizationId', 'required');
  return { id: authorizationId };
};

export class AuthorizationClient {
  readonly #http: HttpClient;

  constructor(options: AuthorizationClientOptions) {
    assertEnvironment(options.environment, options.clientId, options.baseUrl);
    this.#http = createHttpClient({ ...options, scopes: ['sales:authorize'] }, sdkInfo);
  }

  /** Opens a sale journey: authorize, confirm and cancel all carry the same X-Correlation-Id. */
  journey(correlationId: string = uuidv4()): Journey {
    return {
      correlationId,
      authorize: (cart, options) => this.authorize(cart, { ...options, correlationId }),
      confirm: (id, input, options) => this.confirm(id, input, { ...options, correlationId }),
      cancel: (id, input, options) => this.cancel(id, input, { ...options, correlationId }),
    };
  }

  /**
   * Asks to finance the cart (build it with `buildCart`). Resolves `{ authorized: true, ... }` with
   * `expiresAt` and `expiresAtDate`, or `{ authorized: false, declineReason }` for a credit refusal;
   * rejects with FinApiError for a technical problem (`total_mismatch`, `imei_already_financed` ...).
   * Every result and error of a write carries `idempotencyKey` and `requestIds`; a result also `lastResponse`.
   * `.withResponse()` gives `{ data, response }` (the fetch `Response`); an answered error has `response` too.
   */
  authorize(cart: AuthorizeRequest, options: CallOptions = {}): ApiPromise<WriteResult<AuthorizeOutcome>> {
    return apiPromise(this.#authorize(cart, options));
  }

  async #authorize(cart: AuthorizeRequest, options: CallOptions): Promise<WriteResult<AuthorizeOutcome>> {
    const body = parseInput(api.authorizeSale.body.schema, cart);
    const { data, meta } = await this.#http.request({
      ...endpoints.endpointRequest(api.authorizeSale, { body }),
      ...options,
    });
    // zod's own object gains the date and the receipt, not a spread copy (decision TR-5).
    const outcome = data.authorized ? Object.assign(data, { expiresAtDate: new Date(data.expiresAt) }) : data;
    return withWriteReceipt(outcome, meta);
  }

  /** Confirms the invoicing of an authorized sale; the financing service creates the contract. */
  confirm(
    authorizationId: string,
    input: ConfirmInput,
    options: CallOptions = {},
  ): ApiPromise<WriteResult<ConfirmResult>> {
    return apiPromise(this.#confirm(authorizationId, input, options));
  }

  async #confirm(
    authorizationId: string,
    input: ConfirmInput,
    options: CallOptions,
  ): Promise<WriteResult<ConfirmResult>> {
    const body = parseInput(api.confirmSale.body.schema, {
      ...input,
      invoicedAt: utcInstant(input.invoicedAt, 'invoicedAt'),
    });
    if (!nfeKey.isValid(body.nfeAccessKey))
      throw invalidField('nfeAccessKey', 'check digit of the NF-e key is wrong');
    const params = onAuthorization(authorizationId);
    const { data, meta } = await this.#http.request({
      ...endpoints.endpointRequest(api.confirmSale, { params, body }),
      ...options,
    });
    return withWriteReceipt(data, meta);
  }

  /** Notifies a cancellation made in the POS; `reason: 'EXCHANGE'` for an exchange. */
  cancel(
    authorizationId: string,
    input: CancelInput,
    options: CallOptions = {},
  ): ApiPromise<WriteResult<CancelResult>> {
    return apiPromise(this.#cancel(authorizationId, input, options));
  }

  async #cancel(
    authorizationId: string,
    input: CancelInput,
    options: CallOptions,
  ): Promise<WriteResult<CancelResult>> {
    const cancelledAt =
      input.cancelledAt === undefined ? undefined : utcInstant(input.cancelledAt, 'cancelledAt');
    const body = parseInput(api.cancelSale.body.schema, { ...input, cancelledAt });
    const params = onAuthorization(authorizationId);
    const { data, meta } = await this.#http.request({
      ...endpoints.endpointRequest(api.cancelSale, { params, body }),
      ...options,
    });
    return withWriteReceipt(data, meta);
  }

  /**
   * The current state of an authorization this client created (`GET /v1/sales/{id}`): `status`,
   * `expiresAt`, `contractId` once confirmed, `cancellation` once notified (with its R-08 `verification`).
   * What a POS restarting after a crash reads to learn where a sale stands. A read: no Idempotency-Key.
   * `.withResponse()` gives `{ data, response }`, as on every call.
   */
  retrieve(
    authorizationId: string,
    options: Omit<CallOptions, 'idempotencyKey'> = {},
  ): ApiPromise<WithResponse<AuthorizationState>> {
    return apiPromise(this.#retrieve(authorizationId, options));
  }

  async #retrieve(
    authorizationId: string,
    options: Omit<CallOptions, 'idempotencyKey'>,
  ): Promise<WithResponse<AuthorizationState>> {
    const params = onAuthorization(authorizationId);
    const { data, meta } = await this.#http.request({
      ...endpoints.endpointRequest(api.retrieveSale, { params }),
      ...options,
    });
    return withResponse(data, meta);
  }

  /**
   * Tells `listener` of every request this client sends (`'request'`, as it leaves) or has answered
   * (`'response'`: status, elapsed ms): method, route template, request and correlation ids, attempt. Never
   * a body, header, secret, CPF or IMEI. A listener that throws is logged and the call goes on.
   */
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): this {
    this.#http.on(name, listener);
    return this;
  }

  /** Removes a listener added with `on`. */
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): this {
    this.#http.off(name, listener);
    return this;
  }

  /** whether an approved authorization has passed its `expiresAt`. */
  isExpired(authorization: { expiresAt: string }, now?: Date): boolean {
    return isExpired(authorization, now);
  }
}
