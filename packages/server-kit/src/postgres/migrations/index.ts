// Every migration of the PostgreSQL store, oldest first. Append only: a published migration never changes.
import { initialSchema } from './0001-initial-schema.js';
import { slidingWindowLimits } from './0002-sliding-window-limits.js';
import { claimLiveness } from './0003-claim-liveness.js';
import { stockHolds } from './0004-stock-holds.js';
import { certificateBoundTokens } from './0005-certificate-bound-tokens.js';
import { webhookEvents } from './0006-webhook-events.js';
import { cheaperRateLimitHit } from './0007-cheaper-rate-limit-hit.js';
import { limitHitLast } from './0008-limit-hit-last.js';
import { recordLifecycle } from './0009-record-lifecycle.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const migrations: readonly Migration[] = [
  initialSchema,
  slidingWindowLimits,
  claimLiveness,
  stockHolds,
  certificateBoundTokens,
  webhookEvents,
  cheaperRateLimitHit,
  limitHitLast,
  recordLifecycle,
];
