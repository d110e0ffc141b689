// Reads a request body within the size limit and parses it: JSON for the API, form-encoded for the token endpoint.
import type { ErrorCode, ErrorDetail } from '@fin/core';
import { exceedsJsonDepth, jsonDepthIssue } from '@fin/core/errors';
import type { BodyRead, PlainRequest } from './plain.js';

export type BodyFailure = { ok: false; code: ErrorCode; details: ErrorDetail[] };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** The token endpoint's form (RFC 6749): the parser's and the re-encoder's test of a form body. */
export const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

const bodyIssue = (code: ErrorCode, issue: string, field = 'body'): BodyFailure => ({
  ok: false,
  code,
  details: [{ field, issue }],
});

/** Decoding is stateless without `stream`, so one fatal decoder serves every request. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

async function readText(
  request: PlainRequest,
  limit: number,
): Promise<{ ok: true; text: string } | BodyFailure> {
  const read = await request.readBody(limit);
  if (!read.ok) return bodyIssue('payload_too_large', `must be at most ${limit} bytes`);
  try {
    return { ok: true, text: utf8.decode(read.bytes) };
  } catch {
    return bodyIssue('bad_request', 'is not valid UTF-8');
  }
}

/** A JSON body: `Content-Type: application/json`, at most `limit` bytes, UTF-8, nested at most MAX_JSON_DEPTH, one JSON value. */
export async function readJson(
  request: PlainRequest,
  limit: number,
): Promise<{ ok: true; value: unknown } | BodyFailure> {
  if (!JSON_TYPE.test(request.header('content-type') ?? '')) {
    return bodyIssue('unsupported_media_type', 'must be application/json', 'header.Content-Type');
  }
  const text = await readText(request, limit);
  if (!text.ok) return text;
  if (text.text.trim() === '') return bodyIssue('bad_request', 'is empty; send a JSON object');
  // Before anything walks the value (fingerprint, canonical JSON, schemas): deep nesting would overflow the stack.
  if (exceedsJsonDepth(text.text)) return bodyIssue('bad_request', jsonDepthIssue());
  try {
    return { ok: true, value: JSON.parse(text.text) };
  } catch {
    return bodyIssue('bad_request', 'is not valid JSON');
  }
}

/**
 * A form-encoded body (the token endpoint); a repeated parameter is refused, as RFC 6749 asks. Another
 * content type is `bad_request` (RFC 6749 `invalid_request`, 400: decision S-12), never 415.
 */
export async function readForm(
  request: PlainRequest,
  limit: number,
): Promise<{ ok: true; params: Map<string, string> } | BodyFailure> {
  if (!FORM_TYPE.test(request.header('content-type') ?? '')) {
    return bodyIssue('bad_request', 'must be application/x-www-form-urlencoded', 'header.Content-Type');
  }
  const text = await readText(request, limit);
  if (!text.ok) return text;
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text.text)) {
    if (params.has(name)) return bodyIssue('bad_request', 'is repeated', name);
    params.set(name, value);
  }
  return { ok: true, params };
}

/** A request whose body reads are watched: `arriving()` says whether one is still waiting for the client's bytes. */
export interface WatchedBody {
  request: PlainRequest;
  arriving(): boolean;
}

/**
 * Wraps `request` so the service can tell, when a request outlives its deadline, a client still sending its
 * body (a slow or dripping client: 408, logged as such) from a store that did not answer (503, an outage).
 */
export function watchBody(request: PlainRequest): WatchedBody {
  let pending = 0;
  const readBody = async (limit: number): Promise<BodyRead> => {
    pending++;
    try {
      return await request.readBody(limit);
    } finally {
      pending--;
    }
  };
  return {
    request: { ...request, header: (name) => request.header(name), readBody },
    arriving: () => pending > 0,
  };
}
