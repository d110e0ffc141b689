// The headers every request of one client carries: the caller's `defaultHeaders`, then a `User-Agent` naming SDK, Node and app.
import { FinInputError } from '../errors/index.js';
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
