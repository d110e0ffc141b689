// Turns one HTTP answer into data or a typed error: envelope, error envelope, token endpoint bodies.
import type { z } from 'zod';
import {
  type ErrorCode,
  FinApiError,
  FinResponseParseError,
  FinResponseValidationError,
  isKnownErrorCode,
  type ResponseIssue,
} from '../errors/index.js';
import {
  type ErrorObject,
  errorEnvelope,
  successEnvelope,
  type TokenErrorResponse,
  tokenErrorResponse,
} from '../schemas/index.js';
import { parseRetryAfter } from './retry-policy.js';

/** What is known about one answered attempt. */
export interface Answer {
  endpoint: string;
  status: number;
  text: string;
  headers: Record<string, string>;
  requestId: string;
  correlationId: string;
  now: number;
  /** The fetch `Response` (body read), kept for `withResponse()` and `error.response`. */
  response: Response;
}

export interface Decoded<T> {
  data: T;
  message: string;
}

/** RFC 6749 error values mapped to our catalog, for a token server that sends no `code` of its own. */
const oauthErrorCodes: Record<TokenErrorResponse['error'], ErrorCode> = {
  invalid_request: 'bad_request',
  invalid_client: 'invalid_client',
  invalid_grant: 'invalid_client',
  unauthorized_client: 'invalid_client',
  unsupported_grant_type: 'unsupported_grant_type',
  invalid_scope: 'invalid_scope',
  rate_limit_exceeded: 'rate_limit_exceeded',
  server_error: 'internal_error',
};

const toIssues = (error: z.ZodError): ResponseIssue[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

function parseJson(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch (cause) {
    throw new FinResponseParseError({ ...answer, cause });
  }
}

function invalid(answer: Answer, error: z.ZodError): FinResponseValidationError {
  return new FinResponseValidationError({ ...answer, issues: toIssues(error) });
}

/**
 * The server's id for the request when it differs from the one sent (from the body's `requestId`, else
 * the `X-Request-Id` header): a server that does not echo ours keeps its own beside it.
 */
export function serverRequestIdOf(answer: Answer, bodyRequestId?: string): string | undefined {
  const id = bodyRequestId || answer.headers['x-request-id'];
  return id && id !== answer.requestId ? id : undefined;
}

function apiError(answer: Answer, error: ErrorObject & { code: string }, requestId?: string): FinApiError {
  return new FinApiError({
    code: error.code,
    legacyCode: error.legacyCode,
    message: error.message,
    // A 2xx that still says `success: false` takes the catalog's status for the code.
    status: answer.status >= 400 ? answer.status : undefined,
    details: error.details,
    docsUrl: error.docsUrl,
    endpoint: answer.endpoint,
    // The id this client sent and logged; the server's differing one travels beside it.
    requestId: answer.requestId,
    serverRequestId: serverRequestIdOf(answer, requestId),
    correlationId: answer.headers['x-correlation-id'] ?? answer.correlationId,
    retryAfterMs: parseRetryAfter(answer.headers['retry-after'], answer.now),
    headers: answer.headers,
  });
}

const isFailure = (answer: Answer, body: unknown): boolean =>
  answer.status >= 400 ||
  (typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false);

/**
 * An envelope answer: `data` checked against `schema`, or the error it carries as a FinApiError.
 * `envelope` is `successEnvelope(schema)`, built once by the caller: zod compiles each new object schema
 * on its first parse, which costs a hundred times the parse itself.
 */
export function decodeEnvelope<S extends z.ZodType>(
  answer: Answer,
  schema: S,
  // Widened to a plain ZodType so the generic payload does not defeat inference of the envelope.
  envelope: z.ZodType = successEnvelope(schema as z.ZodType),
): Decoded<z.output<S>> {
  const body = parseJson(answer);
  if (isFailure(answer, body)) {
    const parsed = errorEnvelope.safeParse(body);
    if (!parsed.success) throw invalid(answer, parsed.error);
    throw apiError(answer, parsed.data.error, parsed.data.requestId);
  }
  const parsed = envelope.safeParse(body);
  if (!parsed.success) throw invalid(answer, parsed.error);
  const checked = parsed.data as { data: unknown; message: string };
  return { data: checked.data as z.output<S>, message: checked.message };
}

/** A token endpoint answer: the plain JSON body, or its RFC 6749 error as a FinApiError of our catalog. */
export function decodeToken<S extends z.ZodType>(answer: Answer, schema: S): Decoded<z.output<S>> {
  const body = parseJson(answer);
  if (answer.status < 400) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw invalid(answer, parsed.error);
    return { data: parsed.data as z.output<S>, message: '' };
  }
  const oauth = tokenErrorResponse.safeParse(body);
  if (oauth.success) {
    const { code, error, legacyCode, message, error_description, requestId } = oauth.data;
    const catalogCode = code !== undefined && isKnownErrorCode(code) ? code : oauthErrorCodes[error];
    throw apiError(
      answer,
      { code: catalogCode, legacyCode, message: message || error_description || '' },
      requestId,
    );
  }
  // A gateway in front of the token endpoint may still answer with our plain error envelope.
  const envelope = errorEnvelope.safeParse(body);
  if (envelope.success) throw apiError(answer, envelope.data.error, envelope.data.requestId);
  throw invalid(answer, oauth.error);
}
