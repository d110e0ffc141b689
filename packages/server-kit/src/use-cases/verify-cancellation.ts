// R-08 verification: one sale search for a pending cancellation notice, and the status change it allows.
import { isFinApiError, isFinError, type SaleStatus } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { AuthorizationRecord, CancellationRecord } from '../ports/records.js';
import type { SaleSearch } from '../ports/sale-search.js';
import type { KeyAnswer } from '../ports/store.js';
import { effectiveStatus } from '../rules/r06-expiry.js';
import { checkCancellationBySaleSearch } from '../rules/r08-cancellation.js';
import { cancellationSettled } from '../webhooks/event-drafts.js';
import type { UseCaseResult, Write } from './result.js';

/** The verifier gives up after this many searches (about two days with the backoff below). */
export const MAX_VERIFICATION_ATTEMPTS = 48;

/** Wait before search `attempts + 1`: 1 min, doubling, at most 1 h. */
export function nextVerificationDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export type SearchAnswer = { ok: true; sales: readonly SaleStatus[] } | { ok: false; why: string };

/**
 * An API error answer with HTTP 404: the partner found no sale (the spec names no code for it, so any code
 * is). A @fin transport error (a 404 body nobody could read, a wrong URL) stays a failure; another
 * port's own error counts when it carries `status: 404` and a `code`.
 */
const isNotFound = (error: unknown) => {
  if (isFinError(error)) return isFinApiError(error) && error.status === 404;
  const answer = error as { status?: unknown; code?: unknown } | null;
  return answer?.status === 404 && typeof answer.code === 'string';
};

/**
 * One sale search by IMEI with a time limit; a failure or a timeout is an answer too, never a throw. A 404
 * from the port, whatever its code, is an empty result (no sale yet), not a failure.
 */
export async function searchSales(
  saleSearch: SaleSearch | undefined,
  imei: string,
  timeoutMs: number,
): Promise<SearchAnswer> {
  if (!saleSearch) return { ok: false, why: 'no sale search configured for this partner' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<SearchAnswer>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, why: `sale search timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const search = saleSearch.search({ imei }).then(
    (answer): SearchAnswer => ({
      ok: true,
      sales: Array.isArray(answer) ? answer : ((answer as { sales: SaleStatus[] }).sales ?? []),
    }),
    (error: unknown): SearchAnswer =>
      isNotFound(error)
        ? { ok: true, sales: [] }
        : {
            ok: false,
            why: `sale search failed: ${(error as { code?: string })?.code ?? (error as Error)?.name ?? 'error'}`,
          },
  );
  try {
    return await Promise.race([search, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The cancellation record after one search, and the status it leads to. */
function afterSearch(
  record: AuthorizationRecord,
  answer: SearchAnswer,
  now: Date,
): Pick<AuthorizationRecord, 'status' | 'cancellation'> {
  const notice = record.cancellation!;
  const attempts = notice.attempts + 1;
  const outcome = answer.ok ? checkCancellationBySaleSearch(record, answer.sales) : undefined;
  if (outcome?.verification === 'VERIFIED') {
    return {
      status: 'CANCELLED',
      cancellation: {
        ...notice,
        attempts,
        verification: 'VERIFIED',
        verifiedAt: now.toISOString(),
        nextAttemptAt: null,
        lastOutcome: `sale ${outcome.sale.saleNumber} is CANCELLED`,
      },
    };
  }
  if (outcome?.verification === 'CONTRADICTED') {
    return {
      status: record.status,
      cancellation: {
        ...notice,
        attempts,
        verification: 'CONTRADICTED',
        nextAttemptAt: null,
        lastOutcome: `sale ${outcome.sale.saleNumber} is ${outcome.sale.status}`,
      },
    };
  }
  // Nothing settled: search again later, unless the authorization lapsed unconfirmed or we tried long enough.
  const giveUp = attempts >= MAX_VERIFICATION_ATTEMPTS || effectiveStatus(record, now) === 'EXPIRED';
  const cancellation: CancellationRecord = {
    ...notice,
    attempts,
    nextAttemptAt: giveUp ? null : new Date(now.getTime() + nextVerificationDelayMs(attempts)).toISOString(),
    lastOutcome: answer.ok ? 'no sale of this authorization in the search' : answer.why,
  };
  return { status: record.status, cancellation };
}

/** The record as stored after the search. */
export interface Verified {
  record: AuthorizationRecord;
  /** The cancel call's key was taken over (its lease ran out): nothing was written. */
  claimLost?: true;
}

/** The cancel call's write, and its answer for the record about to be written (stored with it, W-11). */
export interface CancelAnswer {
  write: Write<unknown>;
  resultOf(next: AuthorizationRecord): UseCaseResult;
}

/**
 * Searches the partner POS once for `record`'s sale and stores what it shows (R-08): `CANCELLED` cancels
 * the financing (frees the IMEI; an `EXCHANGE` proposal becomes reusable); `ACTIVE` or `PENDING`
 * contradicts the notice (the search prevails); no answer leaves it `PENDING` for the verifier.
 * `answered` (the cancel call) gives the key's answer for the record about to be written, stored with it.
 */
export async function verifyCancellation(
  deps: ServiceDeps,
  record: AuthorizationRecord,
  answered?: CancelAnswer,
): Promise<Verified> {
  if (record.cancellation?.verification !== 'PENDING') return { record };
  const saleSearch = deps.clients.get(record.clientId)?.saleSearch;
  const answer = await searchSales(saleSearch, record.imei, deps.settings.limits.saleSearchTimeoutMs);
  const now = deps.clock.now();
  const next: AuthorizationRecord = {
    ...record,
    ...afterSearch(record, answer, now),
    updatedAt: now.toISOString(),
  };
  const storeWrite = (answer: KeyAnswer | undefined) =>
    deps.store.updateAuthorization({
      record: next,
      expectedVersion: record.version,
      answer,
      now,
      events: cancellationSettled(record, next, now),
    });
  const written = answered
    ? await answered.write.commit(answered.resultOf(next), storeWrite)
    : await storeWrite(undefined);
  if (written.ok) return { record: written.record };
  if (written.reason === 'claim_lost') return { record, claimLost: true };
  if (!answer.ok)
    deps.logger?.warn?.({ event: 'cancellation.unverified', authorizationId: record.authorizationId });
  return { record: (await deps.store.getAuthorization(record.authorizationId)) ?? record };
}
