// redact: a deep, log-ready copy of any value with credentials removed and CPF, IMEI and phone numbers masked.
import * as cpf from '../identifiers/cpf.js';
import * as imei from '../identifiers/imei.js';
import { type KeyKind, keyKind } from './keys.js';
import { redactText } from './text.js';

/** What `redact` returns: plain JSON data. */
export type Redacted = null | boolean | number | string | Redacted[] | { [key: string]: Redacted };

type Personal = Exclude<KeyKind, 'secret'>;

const MAX_DEPTH = 32;

/**
 * A copy of `value` fit for a log line; the input is never touched. Keys naming a credential
 * (password, client secret, tokens, Authorization, cookies) are dropped with their value; values under
 * CPF, IMEI and phone keys are masked; every other string goes through `redactText`. Errors keep
 * `name`, `message` and `code` (never their cause); `Headers`, `Map`, `Set`, `Date`, `URL` become
 * plain data; cycles become `'[Circular]'`.
 */
export function redact(value: unknown): Redacted {
  return walk(value, undefined, new Set(), 0) ?? null;
}

function walk(
  value: unknown,
  personal: Personal | undefined,
  ancestors: Set<object>,
  depth: number,
): Redacted | undefined {
  switch (typeof value) {
    case 'string':
      return personal ? maskPersonal(personal, value) : redactText(value);
    case 'number':
      return personal && Number.isFinite(value) ? maskPersonal(personal, String(value)) : value;
    case 'bigint':
      return personal ? maskPersonal(personal, String(value)) : String(value);
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      // undefined, functions and symbols have no place in a log line.
      return undefined;
  }
  if (value === null) return null;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Too deep]';
  ancestors.add(value);
  try {
    return walkObject(value, personal, ancestors, depth + 1);
  } finally {
    ancestors.delete(value);
  }
}

function walkObject(
  value: object,
  personal: Personal | undefined,
  ancestors: Set<object>,
  depth: number,
): Redacted | undefined {
  const next = (v: unknown, kind = personal) => walk(v, kind, ancestors, depth);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof URL) return redactText(value.href);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value) || value instanceof Set) return [...value].map((item) => next(item) ?? null);
  if (value instanceof Error && !hasToJSON(value)) {
    const { code, status } = value as { code?: unknown; status?: unknown };
    return entries(
      [
        ['name', value.name],
        ['message', value.message],
        ['code', code],
        ['status', status],
      ],
      next,
    );
  }
  if (value instanceof Map || (typeof Headers !== 'undefined' && value instanceof Headers)) {
    return entries(value.entries(), next);
  }
  if (hasToJSON(value)) return next(value.toJSON());
  return entries(Object.entries(value), next);
}

function entries(
  pairs: Iterable<[unknown, unknown]>,
  next: (v: unknown, kind?: Personal) => Redacted | undefined,
): Record<string, Redacted> {
  const out: Record<string, Redacted> = {};
  for (const [rawKey, item] of pairs) {
    const key = String(rawKey);
    const kind = keyKind(key);
    if (kind === 'secret') continue;
    const redacted = kind ? next(item, kind) : next(item);
    // defineProperty, so a `__proto__` key from parsed JSON stays a plain key.
    if (redacted !== undefined) {
      Object.defineProperty(out, redactText(key), {
        value: redacted,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

function hasToJSON(value: object): value is { toJSON(): unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** A value under a CPF, IMEI or phone key; shapes other than theirs are starred out entirely. */
function maskPersonal(kind: Personal, text: string): string {
  if (kind === 'cpf') return cpf.mask(text);
  if (kind === 'imei') return imei.mask(text);
  // A phone number keeps its last 4 digits and its punctuation: +55 (11) 98765-4321 -> +** (**) *****-4321.
  let hide = text.replace(/\D/g, '').length - 4;
  return text.replace(/\d/g, (digit) => (hide-- > 0 ? '*' : digit));
}
