// through service.fetch: an exchange reuses the original proposal; each failed condition has its own code.
import type { SaleStatus } from '@fin/core';
import { type FinancingServiceOptions, sandboxCreditEngine } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import {
  cart,
  DAY,
  deviceImei,
  harness,
  MINUTE,
  PARTNER_A,
  PARTNER_B,
  saleSearchDouble,
} from './support/harness.js';

/** A partner with a sale search double and a credit engine that counts its analyses. */
function setup(options: Partial<FinancingServiceOptions> = {}) {
  const pos = saleSearchDouble();
  const sandbox = sandboxCreditEngine();
  const analyses = { count: 0 };
  const h = harness({
    clients: [{ ...PARTNER_A, saleSearch: pos.saleSearch }, PARTNER_B],
    credit: {
      analyze(request) {
        analyses.count += 1;
        return sandbox.analyze(request);
      },
    },
    ...options,
  });
  /** Authorizes `device` for the customer, and cancels it for exchange with the POS agreeing (or not answering). */
  const exchange = async (
    device: number,
    options: { price?: number; posDown?: boolean; storeId?: string } = {},
  ) => {
    const authorized = await h.authorize(
      cart({ imei: deviceImei(device), price: options.price, storeId: options.storeId }),
    );
    const id = authorized.body.data.authorizationId as string;
    const cancelled: SaleStatus = {
      status: 'CANCELLED',
      saleNumber: `S-${device}`,
      saleDate: h.clock.now().toISOString(),
      cancellationDate: h.clock.now().toISOString(),
    };
    pos.state.sales = [cancelled];
    pos.state.down = options.posDown ?? false;
    await h.cancel(id, { reason: 'EXCHANGE' });
    return { id, authorized };
  };
  return { h, pos, analyses, exchange };
}

describe('R-11 proposal reuse', () => {
  it('R-09/R-11: after a verified EXCHANGE cancellation the new sale reuses the proposal without a new analysis', async () => {
    const { h, analyses, exchange } = setup();
    await exchange(1);
    expect(analyses.count).toBe(1);
    const again = await h.authorize(cart({ imei: deviceImei(2), price: 240_000 }));
    expect(again.body.data).toMatchObject({ authorized: true, proposalReuse: { reused: true } });
    expect(analyses.count).toBe(1);
  });

  it('R-11 condition 1: another store is proposal_not_found, and the flow falls back to a new analysis', async () => {
    const { h, analyses, exchange } = setup();
    await exchange(1);
    const again = await h.authorize(cart({ imei: deviceImei(2), storeId: 'store-a2' }));
    expect(again.body.data).toMatchObject({
      authorized: true,
      proposalReuse: { reused: false, failure: 'proposal_not_found', message: expect.any(String) },
    });
    expect(analyses.count).toBe(2);
  });

  it('R-11 condition 2: an exchange notice the sale search has not verified is proposal_already_used', async () => {
    const { h, exchange } = setup();
    await exchange(1, { posDown: true });
    const again = await h.authorize(cart({ imei: deviceImei(2) }));
    expect(again.body.data.proposalReuse).toMatchObject({ reused: false, failure: 'proposal_already_used' });
  });

  it('R-11 condition 3: after 7 calendar days (São Paulo) it is proposal_reuse_window_expired', async () => {
    const { h, exchange } = setup();
    await exchange(1);
    // Approved 2026-03-02 12:00 in São Paulo: 2026-03-09 23:59 is still day 7, 2026-03-10 00:00 is day 8.
    h.clock.set(new Date('2026-03-10T02:59:00.000Z'));
    const token = await h.freshToken();
    const inside = await h.authorize(cart({ imei: deviceImei(2) }), { token });
    expect(inside.body.data.proposalReuse).toEqual({ reused: true });

    const late = setup();
    await late.exchange(1);
    late.h.clock.set(new Date('2026-03-10T03:00:00.000Z'));
    const outside = await late.h.authorize(cart({ imei: deviceImei(2) }), {
      token: await late.h.freshToken(),
    });
    expect(outside.body.data.proposalReuse).toMatchObject({
      reused: false,
      failure: 'proposal_reuse_window_expired',
    });
  });

  it('R-11 condition 4: a grandTotal above the approved amount is proposal_reuse_amount_exceeded', async () => {
    const { h, exchange } = setup();
    await exchange(1, { price: 250_000 });
    const again = await h.authorize(cart({ imei: deviceImei(2), price: 250_001 }));
    expect(again.body.data.proposalReuse).toMatchObject({
      reused: false,
      failure: 'proposal_reuse_amount_exceeded',
    });
  });

  it('R-11 condition 5: a proposal reused once is proposal_reuse_limit_reached on the next exchange', async () => {
    const { h, exchange } = setup();
    await exchange(1);
    h.clock.advance(MINUTE);
    const second = await exchange(2);
    h.clock.advance(MINUTE);
    expect(second.authorized.body.data.proposalReuse).toEqual({ reused: true });
    const third = await h.authorize(cart({ imei: deviceImei(3) }));
    expect(third.body.data.proposalReuse).toMatchObject({
      reused: false,
      failure: 'proposal_reuse_limit_reached',
    });
  });

  it('R-11: when reuse fails and the new analysis declines, the answer is an R-07 decline that says why', async () => {
    const { h, exchange } = setup({
      credit: {
        analyze: (() => {
          let calls = 0;
          return async (request) =>
            ++calls === 1
              ? { approved: true as const, amount: request.amount, installments: 10 }
              : { approved: false as const, declineReason: 'CREDIT_POLICY' };
        })(),
      },
    });
    await exchange(1);
    const again = await h.authorize(cart({ imei: deviceImei(2), price: 300_000 }));
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      authorized: false,
      declineReason: 'CREDIT_POLICY',
      proposalReuse: { reused: false, failure: 'proposal_reuse_amount_exceeded' },
    });
  });

  it('R-11 is configurable: a longer window and a ceiling above the approved amount', async () => {
    const { h, exchange } = setup({ rules: { r11: { windowDays: 30, ceiling: 110 } } });
    await exchange(1, { price: 200_000 });
    h.clock.advance(20 * DAY);
    const token = await h.freshToken();
    const over = await h.authorize(cart({ imei: deviceImei(2), price: 220_001 }), { token });
    expect(over.body.data.proposalReuse).toMatchObject({
      reused: false,
      failure: 'proposal_reuse_amount_exceeded',
    });
    h.clock.advance(16 * MINUTE);
    const inside = await h.authorize(cart({ imei: deviceImei(3), price: 220_000 }), { token });
    expect(inside.body.data.proposalReuse).toEqual({ reused: true });
  });

  it('R-11 is configurable: a reuse limit of 2 allows two exchanges on one proposal', async () => {
    const { h, exchange } = setup({ rules: { r11: { limit: 2 } } });
    await exchange(1);
    h.clock.advance(MINUTE);
    expect((await exchange(2)).authorized.body.data.proposalReuse).toEqual({ reused: true });
    h.clock.advance(MINUTE);
    expect((await exchange(3)).authorized.body.data.proposalReuse).toEqual({ reused: true });
    h.clock.advance(MINUTE);
    const fourth = await h.authorize(cart({ imei: deviceImei(4) }));
    expect(fourth.body.data.proposalReuse).toMatchObject({ failure: 'proposal_reuse_limit_reached' });
  });

  it('R-11: the reuse limit holds under concurrent exchanges: one of many concurrent reuses wins', async () => {
    const { h, exchange } = setup();
    await exchange(1);
    await h.token();
    const answers = await Promise.all(
      [2, 3, 4, 5, 6].map((device) => h.authorize(cart({ imei: deviceImei(device) }))),
    );
    expect(answers.filter((a) => a.body.data.proposalReuse?.reused === true)).toHaveLength(1);
    expect(answers.every((a) => a.body.data.authorized === true)).toBe(true);
  });

  it('another partner never reuses this partner’s proposal', async () => {
    const { h, exchange } = setup();
    await exchange(1);
    const b = await h.authorize(cart({ imei: deviceImei(2), storeId: 'store-b1' }), {
      token: await h.token(PARTNER_B),
    });
    expect(b.body.data.proposalReuse).toBeUndefined();
    expect(b.body.data.authorized).toBe(true);
  });
});
