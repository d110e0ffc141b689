// Property (issue 26 acceptance): on both stores, any journey with faults yields exactly one event per state change, each delivered in order.
import type { SaleStatus } from '@fin/core';
import { generateWebhookSecret } from '@fin/core/webhooks';
import { memoryStore, type Store } from '@fin/server-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedStores } from '../postgres/support/migrated-stores.js';
import {
  CUSTOMER,
  cart,
  confirmation,
  deviceImei,
  harness,
  MINUTE,
  manualClock,
  OTHER_CUSTOMER,
  PARTNER_A,
  PARTNER_B,
} from '../support/harness.js';
import {
  type Delivery,
  deliveryAudit,
  signedAsStandardWebhooks,
  startReceiver,
} from '../support/webhook-receiver.js';
import { journaledStore, owedEvents, seeded } from './event-journal.js';

const HOUR = 60 * MINUTE;
const SLOTS = 3;
const SECRET = generateWebhookSecret();

const slot = fc.integer({ min: 0, max: SLOTS - 1 });
const TAX_IDS = [CUSTOMER, OTHER_CUSTOMER, '00000000191'];
const command = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('authorize' as const), slot }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('confirm' as const), slot }), weight: 3 },
  fc.record({ kind: fc.constant('posSells' as const), slot }),
  {
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      slot,
      pos: fc.constantFrom('CANCELLED', 'ACTIVE', 'NONE'),
    }),
    weight: 2,
  },
  fc.constant({ kind: 'verify' as const }),
  fc.constant({ kind: 'poll' as const }),
  fc.constant({ kind: 'expire' as const }),
  fc.constant({ kind: 'deliver' as const }),
  fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.constantFrom(1000, 5 * MINUTE, 20 * MINUTE, 2 * HOUR),
  }),
  fc.record({
    kind: fc.constant('fault' as const),
    when: fc.constantFrom('before' as const, 'after' as const),
  }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let failing: () => boolean = () => false;
beforeAll(async () => {
  // Fails at random (about 30%), but never a sixth time in a row for one event: every event gets through
  // within the schedule, so order is never waived for a dead one (dead and replay: delivery.test.ts).
  receiver = await startReceiver((_, n) => (n <= 5 && failing() ? 500 : 204));
});
afterAll(() => receiver.close());

async function runJourney(makeStore: () => Promise<Store>, commands: Command[], seed: number) {
  const random = seeded(seed);
  failing = () => random() < 0.3;
  receiver.deliveries.length = 0;
  const inner = await makeStore();
  const journal = journaledStore(inner);
  const sales = new Map<string, SaleStatus[]>();
  const clock = manualClock();
  const saleSearch = {
    search: async ({ imei }: { imei: string }) => ({ sales: structuredClone(sales.get(imei) ?? []) }),
  };
  const webhooks = [{ url: receiver.url, secrets: [SECRET] }];
  const h = harness(
    {
      clients: [{ ...PARTNER_A, saleSearch, webhooks }, PARTNER_B],
      store: journal.store,
      limits: { saleSearchTimeoutMs: 1000 },
      webhookDelivery: { random, timeoutMs: 2000 },
    },
    clock,
  );
  const ids: string[][] = Array.from({ length: SLOTS }, () => []);
  const issued = new Map<string, Date>();
  let token = { value: '', at: -Infinity };
  const call = async () => {
    if (clock.now().getTime() - token.at > 50 * MINUTE)
      token = { value: await h.freshToken(), at: clock.now().getTime() };
    return { token: token.value };
  };
  const latest = (i: number) => ids[i]!.at(-1);
  const invoiceOf = (id: string) => new Date(issued.get(id)!.getTime() + 1000);
  const sale = (id: string, i: number, status: SaleStatus['status']): SaleStatus => ({
    ...confirmation(invoiceOf(id)),
    status,
    saleDate: invoiceOf(id).toISOString(),
    imei: deviceImei(i + 1),
  });
  const swallow = (work: Promise<unknown>) => work.catch(() => undefined);
  for (const c of commands) {
    const id = 'slot' in c ? latest(c.slot) : undefined;
    if (c.kind === 'authorize') {
      const answer = await h.authorize(
        cart({ imei: deviceImei(c.slot + 1), clientTaxId: TAX_IDS[c.slot]! }),
        await call(),
      );
      const created = answer.body?.data?.authorizationId as string | undefined;
      if (created) {
        ids[c.slot]!.push(created);
        issued.set(created, clock.now());
      }
    } else if (c.kind === 'confirm' && id) {
      sales.set(deviceImei(c.slot + 1), [sale(id, c.slot, 'ACTIVE')]);
      await h.confirm(id, confirmation(invoiceOf(id)), await call());
    } else if (c.kind === 'posSells' && id) {
      sales.set(deviceImei(c.slot + 1), [sale(id, c.slot, 'ACTIVE')]);
    } else if (c.kind === 'cancel' && id) {
      sales.set(deviceImei(c.slot + 1), c.pos === 'NONE' ? [] : [sale(id, c.slot, c.pos as 'CANCELLED')]);
      await h.cancel(id, { reason: 'CUSTOMER_REQUEST' }, await call());
    } else if (c.kind === 'verify') await swallow(h.service.workers.verifyCancellations());
    else if (c.kind === 'poll') await swallow(h.service.workers.pollConfirmations());
    else if (c.kind === 'expire') await swallow(h.service.workers.expireAuthorizations());
    else if (c.kind === 'deliver') await swallow(h.service.webhooks.deliverDue());
    else if (c.kind === 'advance') clock.advance(c.ms);
    else if (c.kind === 'fault') journal.arm(c.when);
  }
  // The end of every grace: the last expiries, then deliveries until nothing is pending.
  journal.arm(undefined);
  clock.advance(3 * HOUR);
  await h.service.workers.expireAuthorizations();
  for (
    let round = 0;
    round < 12 && (await inner.listWebhookEvents({ status: 'PENDING' })).length > 0;
    round++
  ) {
    await h.service.webhooks.deliverDue();
    clock.advance(11 * HOUR);
  }
  return { inner, journal, ids: ids.flat(), h };
}

/** How many events of each type (and contract source) the journeys made: the property must meet them all. */
const seen = new Map<string, number>();

async function checkJourney({ inner, journal, ids }: Awaited<ReturnType<typeof runJourney>>) {
  const deliveries: Delivery[] = receiver.deliveries;
  let events = 0;
  for (const id of ids) {
    const rows = await inner.listWebhookEvents({ authorizationId: id, limit: 1000 });
    events += rows.length;
    // Exactly one event per state change, in the order of the changes, and none without one.
    const owed = journal.writes.filter((w) => w.next.authorizationId === id).flatMap(owedEvents);
    expect(rows.map((r) => r.type)).toEqual(owed);
    expect(rows.map((r) => r.sequence)).toEqual(owed.map((_, i) => i + 1));
    const record = (await inner.getAuthorization(id))!;
    expect(owed.filter((t) => t === 'authorization.expired')).toHaveLength(
      record.status === 'EXPIRED' ? 1 : 0,
    );
    for (const row of rows) {
      const kind = row.type === 'contract.created' ? `${row.type}/${row.data.source}` : row.type;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      expect(row.status).toBe('DELIVERED');
    }
    // Delivered at least once, and no attempt before every earlier event of its authorization was acknowledged.
    expect(deliveryAudit(deliveries, rows)).toMatchObject({ undelivered: [], outOfOrder: [] });
  }
  for (const d of deliveries) {
    expect(d.concurrent).toBe(0);
    expect(signedAsStandardWebhooks(d, SECRET)).toBe(true);
    for (const taxId of TAX_IDS) expect(d.body).not.toContain(taxId);
  }
  return events;
}

const journeys = fc.tuple(fc.array(command, { minLength: 8, maxLength: 40 }), fc.integer());
/** Always tried first: a journey that makes every kind of event, with a fault after a committed confirm. */
const everyKind: [[Command[], number]][] = [
  [
    [
      [
        { kind: 'authorize', slot: 0 },
        { kind: 'fault', when: 'after' },
        { kind: 'confirm', slot: 0 },
        { kind: 'cancel', slot: 0, pos: 'CANCELLED' },
        { kind: 'authorize', slot: 1 },
        { kind: 'confirm', slot: 1 },
        { kind: 'cancel', slot: 1, pos: 'ACTIVE' },
        { kind: 'authorize', slot: 2 },
        { kind: 'posSells', slot: 2 },
        { kind: 'advance', ms: 1000 },
        { kind: 'poll' },
        { kind: 'authorize', slot: 0 },
        { kind: 'deliver' },
      ],
      7,
    ],
  ],
];
const stores = migratedStores('fin_webhook_property');

describe('webhook events: one per state change, delivered at least once in order (both stores)', () => {
  it.each([
    ['memoryStore()', () => Promise.resolve(memoryStore()), 60],
    ['postgresStore()', () => stores(), 15],
  ] as const)(
    '%s',
    async (_name, makeStore, numRuns) => {
      let total = 0;
      seen.clear();
      await fc.assert(
        fc.asyncProperty(journeys, async ([commands, seed]) => {
          const journey = await runJourney(makeStore, commands, seed);
          try {
            total += await checkJourney(journey);
          } finally {
            await journey.h.service.close();
            await journey.inner.close();
          }
        }),
        { numRuns, examples: everyKind },
      );
      // The journeys made every kind of event (a property over nothing proves nothing).
      expect(total).toBeGreaterThan(numRuns);
      expect([...seen.keys()].sort()).toEqual([
        'authorization.expired',
        'cancellation.contradicted',
        'cancellation.verified',
        'contract.created/CONFIRM',
        'contract.created/SALE_SEARCH',
      ]);
      console.info(
        `${_name}: ${numRuns} journeys, ${total} events, by type ${JSON.stringify(Object.fromEntries(seen))}`,
      );
    },
    240_000,
  );
});
