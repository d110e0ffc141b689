// One write, owned from its Idempotency-Key header to its answer: the rate-limit hit, the claim with its reads, the run, replay or wait (DESIGN 9).
import type { ServiceDeps } from '../deps/service-deps.js';
import { type AnswerContext, failure } from '../http/envelope.js';
import { perMinuteHit, retryAfter } from '../http/per-minute-limit.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import { isUuidV4 } from '../http/uuid-header.js';
import { newId } from '../ports/ids.js';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import type { AuthorizeFindings, WriteClaim, WriteClaimResult } from '../ports/store.js';
import type { UseCaseResult, Write } from '../use-cases/result.js';
import { requestFingerprint } from './fingerprint.js';
import { createKeyRelease } from './key-release.js';
import { createOwnedRun, isStorable } from './owned-write.js';

const KEY_FIELD = 'header.Idempotency-Key';

/** A waiting duplicate gives up this long before its request's deadline, to answer 409 in progress in time. */
const DEADLINE_MARGIN_MS = 250;

/** The body as sent (for the fingerprint) and as the endpoint's schema parsed it, or the refusal to answer. */
export type ReadBody<Body> = () => Promise<
  { ok: true; raw: unknown; parsed: Body } | { ok: false; response: PlainResponse }
>;

/** One authenticated write call; its use case runs once per key, given its declared reads (`reads`) found. */
export type WriteCall<Body> = {
  request: PlainRequest;
  clientId: string;
  /** The request id every answer echoes, and the moment of the answers refused before the run. */
  answer: AnswerContext;
  /** Read after the key header is checked, before the claim. */
  readBody: ReadBody<Body>;
  /** The request's log line, told when the answer is a replay. */
  trace: { replayed?: boolean };
} & (
  | {
      /** The reads the store makes with the claim (an authorize's), given to the run as `Write.found`. */
      reads: (body: Body) => NonNullable<WriteClaim['reads']>;
      run: (body: Body, write: Write<AuthorizeFindings>, now: Date) => Promise<UseCaseResult>;
    }
  | { reads?: undefined; run: (body: Body, write: Write<undefined>, now: Date) => Promise<UseCaseResult> }
);

type Outcome =
  | { kind: 'answered'; response: PlainResponse }
  /** The stored answer of the first request, to be replayed. */
  | { kind: 'replayed'; response: PlainResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' }
  /** The write's rate-limit hit was refused: nothing was claimed nor run. */
  | { kind: 'rate_limited'; decision: RateLimitDecision };

/** One request's way to its key: the key, the fingerprint and the hit while it is not counted yet. */
interface Attempt<Body> {
  call: WriteCall<Body>;
  local: string;
  key: string;
  fingerprint: string;
  body: Body;
  hit: RateLimitHit | undefined;
}

interface InFlight {
  fingerprint: string;
  done: Promise<PlainResponse | undefined>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `Idempotency-Key` header lower-cased, or the refusal of a missing or malformed one (spec section 8). */
function keyOf(request: PlainRequest, answer: AnswerContext): { key: string } | { refusal: PlainResponse } {
  const key = request.header('idempotency-key');
  if (key === undefined || key.trim() === '') {
    const details = [{ field: KEY_FIELD, issue: 'is required on every write POST (uuid v4)' }];
    return { refusal: failure(answer, 'missing_idempotency_key', { details }) };
  }
  if (!isUuidV4(key)) {
    const details = [{ field: KEY_FIELD, issue: 'must be a uuid v4' }];
    return { refusal: failure(answer, 'validation_error', { details }) };
  }
  return { key: key.toLowerCase() };
}

/** The stored answer, echoing this request's id; everything else as first answered. */
function replay(stored: PlainResponse, requestId: string | undefined): PlainResponse {
  const body = stored.body as Record<string, unknown>;
  return {
    status: stored.status,
    // Key first (TR-5): a stored answer is always a first one, never a replay, so it never names the key.
    headers: { 'idempotent-replayed': 'true', ...stored.headers },
    body: { ...body, ...(requestId ? { requestId } : {}) } as PlainResponse['body'],
  };
}

function respond(outcome: Outcome, answer: AnswerContext, trace: { replayed?: boolean }): PlainResponse {
  switch (outcome.kind) {
    case 'answered':
      return outcome.response;
    case 'replayed':
      trace.replayed = true;
      return replay(outcome.response, answer.requestId);
    case 'rate_limited':
      return failure(answer, 'rate_limit_exceeded', { headers: retryAfter(outcome.decision, answer.now) });
    case 'conflict':
      return failure(answer, 'idempotency_key_conflict', {
        details: [{ field: KEY_FIELD, issue: 'was used for a different request' }],
      });
    case 'in_progress':
      return failure(answer, 'idempotency_key_in_progress', { headers: { 'retry-after': '1' } });
  }
}

/**
 * The writes of the API: each runs at most once per (client, key) across every instance sharing the store.
 * Its hit counts once: with its claim (one store step when the store is also the rate limiter), or alone
 * for a refusal before the claim (then 429 when over the limit) and for a duplicate running here. In this
 * instance a duplicate awaits the running request; across instances it claims again until the answer is
 * stored or `idempotencyWaitMs` (or the request's deadline) runs out.
 */
export function createWrites(deps: ServiceDeps) {
  const inFlight = new Map<string, InFlight>();
  const { limits } = deps.settings;
  const { store, rateLimiter } = deps;
  const keys = createKeyRelease(store, limits.idempotencyLeaseMs);
  const runOwned = createOwnedRun(deps, keys.release);
  const waitBudgetMs = Math.min(limits.idempotencyWaitMs, limits.requestDeadlineMs - DEADLINE_MARGIN_MS);

  /** Counts the attempt's hit (if not yet) and claims: in one store step when the store is also the limiter. */
  async function claim<Body>(attempt: Attempt<Body>, claimInput: WriteClaim): Promise<WriteClaimResult> {
    const { hit } = attempt;
    attempt.hit = undefined;
    if (hit && rateLimiter !== store) {
      const limit = await rateLimiter.consumeRateLimit(hit);
      if (!limit.allowed) return { outcome: 'rate_limited', limit };
      return store.claimWrite(claimInput);
    }
    // `hit` first (TR-5): the claim built in `own` never carries a `hit` of its own.
    return store.claimWrite(hit ? { hit, ...claimInput } : claimInput);
  }

  /** The claimed run: the use case given what the store read for it with the claim. */
  function runClaimed<Body>(
    attempt: Attempt<Body>,
    ref: WriteClaim,
    found: AuthorizeFindings | undefined,
  ): Promise<PlainResponse> {
    const { call, body } = attempt;
    const key = { local: attempt.local, ref, requestId: call.answer.requestId };
    if (call.reads === undefined) {
      const { run } = call;
      return runOwned(key, undefined, (write, now) => run(body, write, now));
    }
    if (!found) throw new Error('Store.claimWrite granted a claim with reads but answered no `found`');
    const { run } = call;
    return runOwned(key, found, (write, now) => run(body, write, now));
  }

  /** Claims the key and runs it when granted; `undefined` when another instance holds it (claim again). */
  async function own<Body>(attempt: Attempt<Body>): Promise<Outcome | undefined> {
    const { call, local } = attempt;
    await keys.releaseStuck(local);
    let finish!: (response: PlainResponse | undefined) => void;
    const done = new Promise<PlainResponse | undefined>((resolve) => {
      finish = resolve;
    });
    inFlight.set(local, { fingerprint: attempt.fingerprint, done });
    let stored: PlainResponse | undefined;
    try {
      const ref: WriteClaim = {
        clientId: call.clientId,
        key: attempt.key,
        owner: newId('claim_'),
        fingerprint: attempt.fingerprint,
        now: deps.clock.now(),
        retentionMs: limits.idempotencyRetentionMs,
        leaseMs: limits.idempotencyLeaseMs,
        ...(call.reads ? { reads: call.reads(attempt.body) } : {}),
      };
      const claimed = await claim(attempt, ref);
      switch (claimed.outcome) {
        case 'rate_limited':
          return { kind: 'rate_limited', decision: claimed.limit };
        case 'conflict':
          return { kind: 'conflict' };
        case 'in_progress':
          return undefined;
        case 'completed':
          stored = claimed.response;
          return { kind: 'replayed', response: stored };
      }
      const response = await runClaimed(attempt, ref, claimed.found);
      if (isStorable(response)) stored = response;
      return { kind: 'answered', response };
    } finally {
      inFlight.delete(local);
      finish(stored);
    }
  }

  /** A duplicate running in this instance: count the hit alone first, then replay its answer or try again. */
  async function join<Body>(running: InFlight, attempt: Attempt<Body>): Promise<Outcome | undefined> {
    if (attempt.hit) {
      const limit = await rateLimiter.consumeRateLimit(attempt.hit);
      attempt.hit = undefined;
      return limit.allowed ? undefined : { kind: 'rate_limited', decision: limit };
    }
    if (running.fingerprint !== attempt.fingerprint) return { kind: 'conflict' };
    const response = await running.done;
    return response ? { kind: 'replayed', response } : undefined;
  }

  async function settle<Body>(attempt: Attempt<Body>): Promise<Outcome> {
    // The wait is a budget of pauses, not a clock reading: rules read the injected clock, and a test
    // clock standing still must not keep a duplicate waiting forever.
    let waitedMs = 0;
    for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
      const running = inFlight.get(attempt.local);
      const outcome = running ? await join(running, attempt) : await own(attempt);
      if (outcome) return outcome;
      if (running) continue;
      // Running in another instance: claim again once its answer may be stored.
      if (waitedMs + pause > waitBudgetMs) return { kind: 'in_progress' };
      waitedMs += pause;
      await sleep(pause);
    }
  }

  /** A refusal before the claim counts the hit alone: 429 when over the limit, else the refusal. */
  async function refuse(hit: RateLimitHit, answer: AnswerContext, refusal: PlainResponse) {
    const headers = retryAfter(await rateLimiter.consumeRateLimit(hit), answer.now);
    return headers ? failure(answer, 'rate_limit_exceeded', { headers }) : refusal;
  }

  return async function write<Body>(call: WriteCall<Body>): Promise<PlainResponse> {
    const { request, answer, clientId } = call;
    const hit = perMinuteHit(`write:${clientId}`, limits.writesPerMinute, answer.now);
    const header = keyOf(request, answer);
    if ('refusal' in header) return refuse(hit, answer, header.refusal);
    const body = await call.readBody();
    if (!body.ok) return refuse(hit, answer, body.response);
    const attempt: Attempt<Body> = {
      call,
      local: [clientId, header.key].join('\u0000'),
      key: header.key,
      fingerprint: requestFingerprint(request.method, request.path, body.raw),
      body: body.parsed,
      hit,
    };
    return respond(await settle(attempt), answer, call.trace);
  };
}
