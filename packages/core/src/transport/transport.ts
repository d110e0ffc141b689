// What every call of one client shares: its settings, ky instance, pacers, token managers, log and envelopes.
import ky, { type KyInstance } from 'ky';
import type { z } from 'zod';
import { type Clock, systemClock } from '../clock/index.js';
import { type Scope, successEnvelope } from '../schemas/index.js';
import { checkBaseUrl } from './base-url.js';
import { override } from './call-context.js';
import { createTransportTelemetry, type TransportTelemetry } from './call-telemetry.js';
import { type ClientEventHub, createClientEvents } from './client-events.js';
import { clientHeaders } from './client-headers.js';
import { checkMutualTls } from './mutual-tls.js';
import { createPacers, type Pacers } from './pacing.js';
import { type BackoffOptions, DEFAULT_BACKOFF } from './retry-policy.js';
import { type Fetch, tlsFetch } from './tls-fetch.js';
import { createTransportLog, type TransportLog } from './transport-log.js';
import type { HttpClientOptions, SdkInfo } from './types.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DEADLINE_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Largest response body a client reads unless told otherwise: 4 MiB, a hundred times a full catalog page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** One client's transport: the options with their defaults, and the state its calls share. */
export interface Transport {
  readonly options: HttpClientOptions;
  readonly baseUrl: string;
  /** Sends one request: the `fetch` option (one whole `Request`) or the global fetch (read when the request leaves), through the `tls` Agent if set. */
  readonly fetch: Fetch;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly maxRetries: number;
  readonly maxResponseBytes: number;
  readonly backoff: Required<BackoffOptions>;
  readonly clock: Clock;
  readonly random: () => number;
  /**
   * ky sends one attempt: its own retries and timeout are off (the retry loop and the attempt signal
   * decide), HTTP errors are answers, redirects are answers too (never followed).
   */
  readonly ky: KyInstance;
  readonly pacers: Pacers;
  readonly log: TransportLog;
  /** The client's `on('request' | 'response')` listeners. */
  readonly events: ClientEventHub;
  /** Spans and metrics of the calls: instruments taken when the client is created. */
  readonly telemetry: TransportTelemetry;
  /** Headers of every request: `defaultHeaders` (lower-cased) and the `User-Agent`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The success envelope of a payload schema, built once per schema (zod compiles each new schema). */
  envelopeOf(schema: z.ZodType): z.ZodType;
  /** The scope string of a call's token: its own scopes, else the client's. */
  scopeOf(scopes: readonly Scope[] | undefined): string;
}

/**
 * The `fetch` option gets each attempt as one `Request`, its body inside (the transport hands the body
 * beside ky's request): a one-argument fetch, such as a service's `fetch(request)`, sees all of it. The
 * init still carries the signal, `redirect` and the `tls` dispatcher.
 */
const wholeRequest =
  (fetch: Fetch): Fetch =>
  (input, init = {}) => {
    const { body: _body, ...rest } = init;
    return fetch(new Request(input, init), rest);
  };

/**
 * Throws a FinInputError when `defaultHeaders` names a header of the SDK, `appInfo` is not header-safe,
 * `maxResponseBytes` is not a positive integer, `baseUrl` is plain HTTP to a remote host (without
 * `allowInsecureHttp`), `tls` lacks its certificate or key, or `mutualTls` is `'required'` without `tls`.
 */
export function createTransport(options: HttpClientOptions, sdk?: SdkInfo): Transport {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = options.clock ?? systemClock;
  const envelopes = new WeakMap<z.ZodType, z.ZodType>();
  const scopeString = (scopes: readonly Scope[]) => [...new Set(scopes)].sort().join(' ');
  const defaultScope = scopeString(options.scopes ?? []);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const log = createTransportLog(options.logger);
  checkBaseUrl(baseUrl, options.allowInsecureHttp, log);
  checkMutualTls(options);
  return {
    options,
    baseUrl,
    fetch: options.tls
      ? tlsFetch(options.tls, options.fetch && wholeRequest(options.fetch))
      : options.fetch
        ? wholeRequest(options.fetch)
        : (input, init) => globalThis.fetch(input, init),
    timeoutMs,
    deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxResponseBytes: override(options.maxResponseBytes, 'maxResponseBytes', 1) ?? DEFAULT_MAX_RESPONSE_BYTES,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    clock,
    random: options.random ?? Math.random,
    ky: ky.create({ retry: 0, throwHttpErrors: false, timeout: false, redirect: 'manual' }),
    pacers: createPacers(options.rateLimit, clock),
    log,
    events: createClientEvents(log),
    telemetry: createTransportTelemetry(baseUrl, sdk),
    headers: clientHeaders(options.defaultHeaders, sdk, options.appInfo),
    envelopeOf(schema) {
      let envelope = envelopes.get(schema);
      if (!envelope) {
        envelope = successEnvelope(schema);
        envelopes.set(schema, envelope);
      }
      return envelope;
    },
    scopeOf: (scopes) => (scopes ? scopeString(scopes) : defaultScope),
  };
}
