// Fair sending within one delivery pass: each partner its own lanes, so a stalled or slow receiver delays only its own partner.
import type { WebhookEventRecord } from '../ports/webhook-events.js';

/** Events of one partner are sent side by side, at most this many at once (each partner has its own). */
export const LANES_PER_PARTNER = 8;

/** What a lane does with an event: send it (saying whether the receiver was unreachable), or release it unsent. */
export interface PartnerWork<Outcome> {
  send(event: WebhookEventRecord): Promise<{ outcome: Outcome; unreachable: boolean }>;
  release(event: WebhookEventRecord): Promise<Outcome>;
  /** False once the pass must start no new attempt (its budget spent, the service closing). */
  mayStart(): boolean;
}

/** The claimed events by partner (client id), each partner's in the order claimed. */
export function byPartner(events: readonly WebhookEventRecord[]): WebhookEventRecord[][] {
  const partners = new Map<string, WebhookEventRecord[]>();
  for (const event of events) {
    const queue = partners.get(event.clientId) ?? [];
    queue.push(event);
    partners.set(event.clientId, queue);
  }
  return [...partners.values()];
}

/**
 * Sends one partner's events on `LANES_PER_PARTNER` lanes. Once one attempt finds the receiver unreachable
 * (timeout, connection refused) or the pass may start nothing more, the partner's remaining events are
 * released unsent: due as they were, for the next pass, with no attempt counted that was not made.
 */
export async function drainPartner<Outcome>(
  queue: WebhookEventRecord[],
  work: PartnerWork<Outcome>,
  tally: (outcome: Outcome) => void,
): Promise<void> {
  let reachable = true;
  const lane = async () => {
    for (let event = queue.shift(); event; event = queue.shift()) {
      if (!reachable || !work.mayStart()) {
        tally(await work.release(event));
        continue;
      }
      const sent = await work.send(event);
      if (sent.unreachable) reachable = false;
      tally(sent.outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES_PER_PARTNER, queue.length) }, lane));
}

/** A pass starts no new attempt once one delivery timeout has run since it began (a slow receiver's backlog waits). */
export function passBudget(timeoutMs: number): { spent(): boolean; dispose(): void } {
  let spent = false;
  const timer = setTimeout(() => {
    spent = true;
  }, timeoutMs);
  timer.unref?.();
  return { spent: () => spent, dispose: () => clearTimeout(timer) };
}
