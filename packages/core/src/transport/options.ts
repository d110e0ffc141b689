// What a client refuses before sending anything: its `baseUrl`, headers (and the `User-Agent` it builds), an Idempotency-Key, numeric overrides.
import { v4 as uuidv4 } from 'uuid';
import { FinInputError } from '../errors/index.js';
import { uuid } from '../schemas/primitives.js';
import type { TransportLog } from './client-telemetry.js';
import type { AppInfo, SdkInfo } from './types.js';

/** Headers only the SDK sets: the call's identity, its credentials and its own name. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'idempotency-key',
  'x-request-id',
  'x-correlation-id',
  'user-agent',
]);

/** RFC 9110 `token`: what a product name and version may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Printable ASCII without parentheses, for the comment that holds the app's URL. */
const COMMENT_TEXT = /^[\x21-\x27\x2a-\x7e]+$/;

const refuse = (field: string, issue: string) =>
  new FinInputError({ code: 'validation_error', details: [{ field, issue }] });

/** `@fin/authorization-client` as a product token: `fin-authorization-client`. */
const productName = (packageName: string) => packageName.replace(/^@/, '').replace(/\//g, '-');

function appProduct(app: AppInfo): string {
  if (!TOKEN.test(app.name)) throw refuse('appInfo.name', 'letters, digits and -._~ only, no spaces or /');
  if (app.version !== undefined && !TOKEN.test(app.version))
    throw refuse('appInfo.version', 'letters, digits and -._~ only, no spaces or /');
  if (app.url !== undefined && !COMMENT_TEXT.test(app.url))
    throw refuse('appInfo.url', 'printable ASCII without spaces or parentheses');
  const product = app.version ? `${app.name}/${app.version}` : app.name;
  return app.url ? `${product} (+${app.url})` : product;
}

/**
 * `fin-authorization-client/1.4.0 node/22.11.0 MyPOS/2.1.0 (+https://pos.example)`: the SDK, the runtime
 * (left out where there is no Node `process`) and the vendor's app, most specific first, as support reads it.
 */
export function userAgent(sdk: SdkInfo | undefined, app: AppInfo | undefined): string {
  const nodeVersion = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return [
    sdk ? `${productName(sdk.name)}/${sdk.version}` : 'fin-core',
    nodeVersion ? `node/${nodeVersion}` : undefined,
    app ? appProduct(app) : undefined,
  ]
    .filter(Boolean)
    .join(' ');
}

/** The client's constant headers, names lower-cased: `defaultHeaders` (refused at construction), then the `User-Agent`. */
export function clientHeaders(
  defaultHeaders: Record<string, string> | undefined,
  sdk: SdkInfo | undefined,
  app: AppInfo | undefined,
): Record<string, string> {
  const headers = callerHeaders(defaultHeaders, 'defaultHeaders');
  headers['user-agent'] = userAgent(sdk, app);
  return headers;
}

/**
 * A caller's headers (`defaultHeaders`, or one call's `headers`), names lower-cased. A header of the SDK is
 * refused (FinInputError naming `<field>.<name>`), so a mistake shows at once instead of being dropped.
 */
export function callerHeaders(
  headers: Record<string, string> | undefined,
  field: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) throw refuse(`${field}.${name}`, 'set by the SDK; cannot be overridden');
    out[lower] = value;
  }
  return out;
}

/** RFC 6761 / RFC 2606 names that never reach the internet: where tests and msw run. */
const RESERVED_SUFFIXES = ['.test', '.localhost', '.invalid', '.example'];
const RESERVED_HOSTS = new Set(['localhost', 'example.com', 'example.net', 'example.org']);

/** Loopback (127.0.0.0/8, ::1, `localhost`) or a reserved test name: plain HTTP never leaves the machine or a test. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (RESERVED_HOSTS.has(host) || RESERVED_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  if (host === '[::1]') return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Spec section 5: TLS 1.2 or higher. A `baseUrl` that is not http(s) is refused; plain `http://` is refused
 * too (FinInputError on `baseUrl`) unless its host is local (loopback, `.test`, `.localhost`, `.invalid`,
 * `.example`) or `allowInsecureHttp` is set, which logs one `http.insecure_base_url` warning for the client.
 */
export function checkBaseUrl(
  baseUrl: string,
  allowInsecureHttp: boolean | undefined,
  log: TransportLog,
): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw refuse('baseUrl', 'an absolute URL, https://host');
  }
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') throw refuse('baseUrl', 'https:// (or http:// to a local test host)');
  if (isLocalHost(url.hostname)) return;
  if (!allowInsecureHttp)
    throw refuse(
      'baseUrl',
      'plain http:// reaches only loopback or a reserved test name; use https:// (TLS 1.2+), or set allowInsecureHttp: true',
    );
  log('warn', {
    event: 'http.insecure_base_url',
    origin: url.origin,
    message: 'TLS is off: every call crosses the network in clear text',
  });
}

/**
 * A new Idempotency-Key (uuid v4). Make it when the order is created and store it with the order before
 * the first call: after a crash, the same call with the same key gets the original answer.
 */
export const newIdempotencyKey = (): string => uuidv4();

/** Whether `value` is a key the API accepts: a uuid v4 (the spec's format), as the server checks it. */
export const isIdempotencyKey = (value: unknown): value is string => uuid.safeParse(value).success;

/** The caller's key when it is a uuid v4; else a `validation_error` before any request is sent. */
export function checkIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined || isIdempotencyKey(value)) return value;
  throw new FinInputError({
    code: 'validation_error',
    message: 'Idempotency-Key must be a uuid v4: use newIdempotencyKey() and store it with the order.',
    details: [{ field: 'idempotencyKey', issue: 'must be a uuid v4' }],
  });
}

/** An option or per-call override: absent, or an integer from `min` up; else refused before sending. */
export function override(value: number | undefined, field: string, min: number): number | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && value >= min)) return value;
  throw refuse(field, `must be an integer of at least ${min}`);
}
