// The response envelope of spec section 2, used by every response, success and error.
import * as z from 'zod';
import type { ErrorCode } from '../errors/catalog.js';
import { documentedObject } from './documented-object.js';
import { openValues } from './open-values.js';
import { utcDateTime } from './primitives.js';

export const errorDetail = documentedObject({
  /** The field at fault, as a path (`items.0.quantity`). */
  field: z.string(),
  /** What is wrong with it. */
  issue: z.string(),
});

export const errorObject = documentedObject({
  /** Stable `snake_case` code, never changed between versions; a code this version does not know is kept as is. */
  code: openValues<ErrorCode>(z.string().regex(/^[a-z][a-z0-9_]*$/, 'code is snake_case')),
  /** Two fixed uppercase letters and four digits (`FA3001`): the numeric alias for support tickets. */
  legacyCode: z
    .string()
    .regex(/^[A-Z]{2}[0-9]{4}$/, 'legacyCode is two uppercase letters and four digits')
    .optional(),
  /** What went wrong, fit for display. */
  message: z.string(),
  /** The fields at fault, one `{ field, issue }` each. */
  details: z.array(errorDetail).optional(),
  /** Where the code is documented: its entry in docs/errors.md. */
  docsUrl: z.url().optional(),
}).meta({ id: 'Error' });
export type ErrorObject = z.infer<typeof errorObject>;

const envelopeFields = {
  /** The technical result (`true` on 2xx), not a credit decision. */
  success: z.boolean(),
  /** Text fit for display to the seller; may be empty. */
  message: z.string(),
  /** When the answer was made: ISO 8601 in UTC with milliseconds (`toISOString()`). */
  timestamp: utcDateTime,
  /** Echo of the request's `X-Request-Id`: quote it to support. */
  requestId: z.string().optional(),
};

/** Success envelope around a payload schema. */
export const successEnvelope = <T extends z.ZodType>(data: T) =>
  documentedObject({
    ...envelopeFields,
    /** `true`: the call succeeded. */
    success: z.literal(true),
    /** The payload. */
    data,
    /** `null` (or absent) on success. */
    error: z.null().optional(),
  });

/** Error envelope: `success: false`, `data: null`, `error` the error object. */
export const errorEnvelope = documentedObject({
  ...envelopeFields,
  /** `false`: the call failed; see `error`. */
  success: z.literal(false),
  /** `null` on error. */
  data: z.null(),
  /** What failed: `code`, `legacyCode`, `message`, `details`, `docsUrl`. */
  error: errorObject,
}).meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Any envelope, payload unchecked: what a reader checks first. */
export const envelope = documentedObject({
  ...envelopeFields,
  /** The payload; `null` on error. */
  data: z.unknown().nullable(),
  /** `null` (or absent) on success; the error object otherwise. */
  error: errorObject.nullable().optional(),
}).meta({ id: 'Envelope' });
export type Envelope = z.infer<typeof envelope>;
