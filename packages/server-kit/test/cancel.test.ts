// POST /v1/sales/{id}/cancel and R-08: the notice is recorded at once; only the partner's sale search cancels the financing.
import { type SaleStatus, schemas } from '@fin/core';
import { describe, expect, it } from 'vitest';
import {
  cart,
  confirmation,
  harness,
  MINUTE,
  PARTNER_A,
  PARTNER_B,
  saleSearchDouble,
  T0,
} from './support/harness.js';

const sale = (status: SaleStatus['status'], over: Partial<SaleStatus> = {}): SaleStatus => ({
  status,
  saleNumber: 'S-1001',
  saleDate: new Date(T0.getTime() + MINUTE).toISOString(),
  cancellationDate: status === 'CANCELLED' ? new Date(T0.getTime() + 2 * MINUTE).toISOString() : null,
  ...over,
});

function setup() {
  const pos = saleSearchDouble();
  const h = harness({ clients: [{ ...PARTNER_A, saleSearch: pos.saleSearch }, PARTNER_B] });
  return { h, pos };
}

async function confirmedSale(h: ReturnType<typeof harness>) {
  const id = (await h.authorize(cart())).body.data.authorizationId as string;
  await h.confirm(id, confirmation(new Date(T0.getTime() + MINUTE)));
  return id;
}

describe('cancel (R-08)', () => {
  it('R-08: when the sale search shows CANCELLED, the financing is cancelled at once and the IMEI freed', async () => {
    const { h, pos } = setup();
    const id = await confirmedSale(h);
    pos.state.sales = [sale('CANCELLED')];
    const answer = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(answer.status).toBe(200);
    expect(schemas.successEnvelope(schemas.cancelResult).parse(answer.body).data).toEqual({
      authorizationId: id,
      status: 'CANCELLED',
      reason: 'CUSTOMER_REQUEST',
      verification: 'VERIFIED',
      financingCancelled: true,
    });
    expect((await h.authorize(cart({ clientTaxId: '11144477735' }))).body.data.authorized).toBe(true);
  });

  it('R-08: when the POS cannot answer, the notice is recorded, the financing stays until the verifier sees CANCELLED', async () => {
    const { h, pos } = setup();
    const id = await confirmedSale(h);
    pos.state.down = true;
    const answer = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(answer.body.data).toMatchObject({
      status: 'CONFIRMED',
      verification: 'PENDING',
      financingCancelled: false,
    });
    // Not verified: the IMEI is still financed.
    expect((await h.authorize(cart({ clientTaxId: '11144477735' }))).body.error.code).toBe(
      'imei_already_financed',
    );
    // Not due yet: the verifier waits a minute before searching again.
    expect(await h.service.workers.verifyCancellations()).toEqual({
      checked: 0,
      verified: 0,
      contradicted: 0,
      pending: 0,
    });
    h.clock.advance(MINUTE);
    expect(await h.service.workers.verifyCancellations()).toMatchObject({ checked: 1, pending: 1 });
    pos.state.down = false;
    pos.state.sales = [sale('CANCELLED')];
    h.clock.advance(2 * MINUTE);
    expect(await h.service.workers.verifyCancellations()).toMatchObject({ checked: 1, verified: 1 });
    expect((await h.authorize(cart({ clientTaxId: '11144477735' }))).body.data.authorized).toBe(true);
  });

  it('R-08 S-4: the verifier gives up on an unconfirmed authorization that lapsed, and never searches for it again', async () => {
    const { h, pos } = setup();
    const id = (await h.authorize(cart())).body.data.authorizationId as string;
    pos.state.down = true;
    expect((await h.cancel(id, { reason: 'CUSTOMER_REQUEST' })).body.data).toMatchObject({
      verification: 'PENDING',
    });
    h.clock.advance(16 * MINUTE);
    expect(await h.service.workers.verifyCancellations()).toMatchObject({ checked: 1, pending: 1 });
    for (const hours of [1, 24]) {
      h.clock.advance(hours * 60 * MINUTE);
      expect(await h.service.workers.verifyCancellations()).toMatchObject({ checked: 0 });
    }
  });

  it('R-08: when notice and search disagree, the search prevails: the financing stays active', async () => {
    const { h, pos } = setup();
    const id = await confirmedSale(h);
    pos.state.sales = [sale('ACTIVE')];
    const answer = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(answer.body.data).toMatchObject({
      status: 'CONFIRMED',
      verification: 'CONTRADICTED',
      financingCancelled: false,
    });
    expect(answer.body.message).toMatch(/ativa/);
    expect((await h.authorize(cart({ clientTaxId: '11144477735' }))).body.error.code).toBe(
      'imei_already_financed',
    );
    // A later notice, once the POS did cancel, is verified again.
    pos.state.sales = [sale('CANCELLED')];
    const again = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(again.body.data).toMatchObject({ status: 'CANCELLED', verification: 'VERIFIED' });
  });

  it('R-08: the confirmed sale is matched by saleNumber; another sale of the IMEI does not count', async () => {
    const { h, pos } = setup();
    const id = await confirmedSale(h);
    pos.state.sales = [sale('CANCELLED', { saleNumber: 'S-0001' })];
    const answer = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(answer.body.data.verification).toBe('PENDING');
  });

  it('R-08: an authorization never confirmed is verified against the IMEI’s latest sale since issue', async () => {
    const { h, pos } = setup();
    const id = (await h.authorize(cart())).body.data.authorizationId as string;
    pos.state.sales = [
      sale('ACTIVE', {
        saleNumber: 'OLD',
        saleDate: new Date(T0.getTime() - 90 * 24 * 60 * MINUTE).toISOString(),
      }),
      sale('CANCELLED', { saleNumber: 'NEW' }),
    ];
    const answer = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(answer.body.data).toMatchObject({ status: 'CANCELLED', verification: 'VERIFIED' });
  });

  it('a partner without a sale search keeps its notices pending (never cancelled on the notice alone)', async () => {
    const h = harness();
    const id = await confirmedSale(h);
    const answer = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(answer.body.data).toMatchObject({ verification: 'PENDING', financingCancelled: false });
  });

  it('cancelling an already cancelled sale answers its state; an expired authorization has nothing to cancel', async () => {
    const { h, pos } = setup();
    const id = await confirmedSale(h);
    pos.state.sales = [sale('CANCELLED')];
    await h.cancel(id, { reason: 'EXCHANGE' });
    const again = await h.cancel(id, { reason: 'OTHER' });
    expect(again.body.data).toMatchObject({
      status: 'CANCELLED',
      reason: 'EXCHANGE',
      financingCancelled: true,
    });

    const lapsed = (await h.authorize(cart({ imei: '356938035643809' }))).body.data.authorizationId as string;
    h.clock.advance(15 * MINUTE);
    const expired = await h.cancel(lapsed, { reason: 'OTHER' });
    expect(expired.status).toBe(409);
    expect(expired.body.error).toMatchObject({
      code: 'invalid_state_transition',
      details: [{ field: 'status', issue: expect.stringContaining('EXPIRED') }],
    });
  });

  it('the reason is an upper-case code', async () => {
    const { h } = setup();
    const id = await confirmedSale(h);
    const answer = await h.cancel(id, { reason: 'troca' });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([{ field: 'reason', issue: expect.any(String) }]);
  });
});
