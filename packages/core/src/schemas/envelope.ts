// The response envelope of spec section 2, used by every response, success and error.
import * as z from 'zod';
import { utcDateTime } from './primitives.js';

export const errorDetail = z.object({ field: z.string(), issue: z.string() });

export const errorObject = z
  .object({
    code: z.string().regex(/^[a-z][a-z0-9_]*$/, 'code is snake_case'),
    legacyCode: z
      .string()
      .regex(/^[A-Z]{2}[0-9]{4}$/, 'legacyCode is two uppercase letters and four digits')
      .optional(),
    message: z.string(),
    details: z.array(errorDetail).optional(),
    docsUrl: z.url().optional(),
  })
  .meta({ id: 'Error' });
export type ErrorObject = z.infer<typeof errorObject>;

const envelopeFields = {
  success: z.boolean(),
  message: z.string(),
  timestamp: utcDateTime,
  requestId: z.string().optional(),
};

/** Success envelope around a payload schema. */
export const successEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({ ...envelopeFields, success: z.literal(true), data, error: z.null().optional() });

/** Error envelope: `success: false`, `data: null`, `error` the error object. */
export const errorEnvelope = z
  .object({ ...envelopeFields, success: z.literal(false), data: z.null(), error: errorObject })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Any envelope, payload unchecked: what a reader checks first. */
export const envelope = z
  .object({ ...envelopeFields, data: z.unknown().nullable(), error: errorObject.nullable().optional() })
  .meta({ id: 'Envelope' });
export type Envelope = z.infer<typeof envelope>;
