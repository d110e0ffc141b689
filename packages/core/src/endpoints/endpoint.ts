// One endpoint of either API as data: method, path, rate class, scopes, schemas, error codes, examples and docs.
import type * as z from 'zod';
import type { ErrorCode } from '../errors/catalog.js';
import type { Scope } from '../schemas/oauth.js';

/** A payload example, shown in the documents and parsed by its schema in the tests. */
export interface NamedExample {
  summary: string;
  value: unknown;
}

/** Rate class of spec section 8: each has its own per-minute limit per client_id, and writes are idempotent. */
export type RateClass = 'token' | 'read' | 'write';

/** The default limits of spec section 8, per client_id and minute; a contract may change them. */
export const perMinuteOf: Readonly<Record<RateClass, number>> = { token: 60, read: 600, write: 120 };

/** The two error bodies: the envelope everywhere, RFC 6749's shape at the token endpoint. */
export type ErrorFormat = 'envelope' | 'oauth';

export interface EndpointDefinition {
  method: 'GET' | 'POST';
  /** As the spec writes it, `/v1` prefix included; a path parameter is `{name}`. */
  path: string;
  rate: RateClass;
  /** Scopes the system token must carry (`[]`: any valid token); `'none'` for the token endpoint itself. */
  scopes: readonly Scope[] | 'none';
  /** The `{name}` parts of `path`. */
  pathParameters?: z.ZodObject;
  query?: z.ZodObject;
  body?: {
    schema: z.ZodType;
    /** Component id, for a body schema without `.meta({ id })`. */
    name?: string;
    mediaType: 'application/json' | 'application/x-www-form-urlencoded';
    examples?: Record<string, NamedExample>;
  };
  response: {
    /** The payload: `data` of the envelope, or the whole body of a response without envelope. */
    schema: z.ZodType;
    description: string;
    /** Payload examples; the document wraps them in the envelope. */
    examples?: Record<string, NamedExample>;
  } & (
    | { envelope: true /** Component id of the 200 body, the envelope around the payload. */; name: string }
    | { envelope: false }
  );
  /** Codes of this endpoint beyond those every endpoint of its kind answers (see `endpointErrorCodes`). */
  errors: readonly ErrorCode[];
  errorFormat?: ErrorFormat;
  /** What the documents say of it; `extensions` are `x-` fields of the operation. */
  docs: {
    summary: string;
    description: string;
    tag: string;
    /** Kept for its callers until their sunset (spec 9.4); `description` says what replaces it. */
    deprecated?: true;
    extensions?: { [key: `x-${string}`]: unknown };
  };
}

/** Keeps the literal types of an entry, so `z.infer` of its schemas types the code that calls or serves it. */
export const defineEndpoint = <const E extends EndpointDefinition>(endpoint: E): E => endpoint;

/** The endpoints of one API, by operationId. */
export type EndpointTable = Readonly<Record<string, EndpointDefinition>>;

/** `METHOD /path`, the name logs and the simulated POS give an endpoint. */
export type EndpointName<E extends EndpointDefinition> = E extends EndpointDefinition
  ? `${E['method']} ${E['path']}`
  : never;

export const endpointName = <E extends EndpointDefinition>(endpoint: E): EndpointName<E> =>
  `${endpoint.method} ${endpoint.path}` as EndpointName<E>;

/** What a resource method returns: the parsed `data` of the endpoint's answer. */
export type EndpointData<E extends EndpointDefinition> = z.output<E['response']['schema']>;
