// Stage: a write's `Idempotency-Key` header, required and a uuid v4 (spec section 8, DESIGN 9).
import { failure } from '../../http/envelope.js';
import { isUuidV4 } from '../../http/uuid-header.js';
import type { Stage } from './stage.js';

const FIELD = 'header.Idempotency-Key';

export const idempotencyKey: Stage = async (ctx, next) => {
  const key = ctx.request.header('idempotency-key');
  if (key === undefined || key.trim() === '') {
    return failure(ctx.answer, 'missing_idempotency_key', {
      details: [{ field: FIELD, issue: 'is required on every write POST (uuid v4)' }],
    });
  }
  if (!isUuidV4(key)) {
    return failure(ctx.answer, 'validation_error', {
      details: [{ field: FIELD, issue: 'must be a uuid v4' }],
    });
  }
  ctx.idempotencyKey = key.toLowerCase();
  return next();
};
