// One endpoint of an API as data: its zod schemas, scopes and error codes; build-document turns it into OpenAPI.
import type { z } from 'zod';
import type { ErrorCode } from '../errors/catalog.js';
import type { Scope } from '../schemas/oauth.js';
import type { Extensions } from './document.js';
import type { ErrorFormat } from './error-responses.js';

export interface NamedExample {
  summary: string;
  value: unknown;
}

export interface OperationDefinition {
  method: 'get' | 'post';
  /** As the spec writes it, `/v1` prefix included. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** Scopes the system token must carry (`[]`: any valid token); `'none'` for the token endpoint itself. */
  scopes: readonly Scope[] | 'none';
  query?: z.ZodObject;
  pathParameters?: z.ZodObject;
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
    /** Payload examples; the builder wraps them in the envelope. */
    examples?: Record<string, NamedExample>;
  } & (
    | { envelope: true /** Component id of the 200 body, the envelope around the payload. */; name: string }
    | { envelope: false }
  );
  /** Codes of this operation beyond those every operation of its kind answers (see `operationErrorCodes`). */
  errors: readonly ErrorCode[];
  errorFormat?: ErrorFormat;
  /** A write POST: requires `Idempotency-Key`. */
  write?: boolean;
  extensions?: Extensions;
}
