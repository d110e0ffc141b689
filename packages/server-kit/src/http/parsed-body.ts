// A body a host framework already parsed (Express `req.body` after express.json() or express.urlencoded()), as the bytes the service reads.
import { MAX_JSON_DEPTH } from '@fin/core/errors';
import { FORM_TYPE } from './body.js';
import type { BodyRead } from './plain.js';

/** A parsed form (flat, or nested and repeated as `qs` makes it) back as `a=1&a=2&b[c]=3`: a repeated field stays repeated. */
function appendForm(form: URLSearchParams, name: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) appendForm(form, name, item);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) appendForm(form, name ? `${name}[${key}]` : key, item);
  } else {
    form.append(name, String(value ?? ''));
  }
}

/**
 * JSON text of a parsed value. A value too deep for `JSON.stringify`'s stack is far deeper than the service
 * accepts: it becomes the text of an over-deep body, which the service answers as it answers the bytes.
 */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '['.repeat(MAX_JSON_DEPTH + 1);
  }
}

/**
 * The bytes of a body a parser consumed (decision FIT-3): a string or Buffer as it is, a form re-encoded, any
 * other value as JSON. The service fingerprints and validates the parsed value (DESIGN 9), never the bytes,
 * so this answers as the client's own bytes would. `undefined` when nothing parsed it.
 */
export function parsedBodyBytes(body: unknown, contentType: string | undefined): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return Buffer.from(body);
  if (FORM_TYPE.test(contentType ?? '') && typeof body === 'object' && body !== null) {
    const form = new URLSearchParams();
    appendForm(form, '', body);
    return Buffer.from(form.toString());
  }
  return Buffer.from(jsonText(body));
}

/** `bytes` as a body read within the service's `limit` (`limits.maxBodyBytes`). */
export const boundedBody = (bytes: Uint8Array, limit: number): BodyRead =>
  bytes.byteLength > limit ? { ok: false, reason: 'too_large' } : { ok: true, bytes };
