// Issue 37 (DESIGN 27) through the public API: the retention options are checked at startup, and an unused proposal expires (LC-3).
import { money } from '@fin/core';
import { createFinancingService, defaultRetention, memoryStore, sandboxCreditEngine } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, DAY, harness, MINUTE, PARTNER_A } from './support/harness.js';

/** This CPF is declined by the sandbox engine: an authorize of it succeeds only through an approved proposal. */
const DECLINED_CPF = '00000000353';

const start = (options: Parameters<typeof createFinancingService>[0]['retention'], r11?: { limit: number }) =>
  createFinancingService({
    clients: [PARTNER_A],
    credit: sandboxCreditEngine(),
    store: memoryStore(),
    retention: options,
    ...(r11 ? { rules: { r11 } } : {}),
  });

describe('retention settings (issue 37, DESIGN 27)', () => {
  it('LC-2: defaults keep credit records 30 days live, expired ones 7, unused proposals 30, events 30 and 90', () => {
    expect(defaultRetention).toEqual({
      tokensMs: DAY,
      endedHoldsMs: 7 * DAY,
      unusedProposalsMs: 30 * DAY,
      deliveredEventsMs: 30 * DAY,
      deadEventsMs: 90 * DAY,
      cancelledAuthorizationsMs: 30 * DAY,
      expiredAuthorizationsMs: 7 * DAY,
    });
  });

  it('LC-2: refuses at startup a retention that would drop what a rule still reads, or that is no duration', () => {
    expect(() => start({ tokensMs: 0 })).toThrow(/retention\.tokensMs/);
    expect(() => start({ deliveredEventsMs: 2 * DAY, deadEventsMs: DAY })).toThrow(/deadEventsMs/);
    // R-11 may reuse a cancelled record's proposal for 7 calendar days.
    expect(() => start({ cancelledAuthorizationsMs: 7 * DAY })).toThrow(/cancelledAuthorizationsMs/);
    expect(() => start({ cancelledAuthorizationsMs: MINUTE }, { limit: 0 })).not.toThrow();
    // A late confirm is accepted for an hour after the 15 minutes (limits.confirmationGraceMs).
    expect(() => start({ expiredAuthorizationsMs: 30 * MINUTE })).toThrow(/expiredAuthorizationsMs/);
    // @ts-expect-error: an unknown setting is refused, not ignored
    expect(() => start({ proposalsMs: DAY })).toThrow(/retention/);
  });

  it('LC-2: a retention left to its default follows a longer R-11 window instead of refusing to start', () => {
    const longerWindow = () =>
      createFinancingService({
        clients: [PARTNER_A],
        credit: sandboxCreditEngine(),
        store: memoryStore(),
        rules: { r11: { windowDays: 30 } },
      });
    expect(longerWindow).not.toThrow();
    expect(() => start({ cancelledAuthorizationsMs: 30 * DAY }, { limit: 1 })).not.toThrow();
    expect(() =>
      createFinancingService({
        clients: [PARTNER_A],
        credit: sandboxCreditEngine(),
        store: memoryStore(),
        rules: { r11: { windowDays: 30 } },
        retention: { cancelledAuthorizationsMs: 30 * DAY },
      }),
    ).toThrow(/cancelledAuthorizationsMs/);
  });

  it('LC-3: an unused proposal is offered until retention.unusedProposalsMs after its approval, then no longer', async () => {
    const h = harness({ retention: { unusedProposalsMs: DAY } });
    await h.service.proposals.approve({
      clientTaxId: DECLINED_CPF,
      storeId: 'store-a1',
      amount: money.brl(250_000),
    });
    h.clock.advance(DAY);
    // Past its retention, the proposal is not used: the engine is asked, and declines this CPF.
    expect((await h.authorize(cart({ clientTaxId: DECLINED_CPF }))).body.data.authorized).toBe(false);

    const fresh = harness({ retention: { unusedProposalsMs: DAY } });
    await fresh.service.proposals.approve({
      clientTaxId: DECLINED_CPF,
      storeId: 'store-a1',
      amount: money.brl(250_000),
    });
    fresh.clock.advance(DAY - 1);
    expect((await fresh.authorize(cart({ clientTaxId: DECLINED_CPF }))).body.data.authorized).toBe(true);
  });
});
