// POST /v1/sales/{id}/confirm: the contract is created once, installments add up to the cent, DESIGN 2 transitions.
import { money, schemas } from '@fin/core';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, confirmation, harness, MINUTE, T0 } from './support/harness.js';

async function authorized(h: ReturnType<typeof harness>, price = 250_000) {
  const answer = await h.authorize(cart({ price }));
  return answer.body.data.authorizationId as string;
}

describe('confirm', () => {
  it('creates the credit contract: principal = grandTotal, installments that add up to the cent', async () => {
    const h = harness();
    await h.service.proposals.approve({
      clientTaxId: CUSTOMER,
      storeId: 'store-a1',
      amount: money.brl(100_000),
      installments: 3,
    });
    const id = await authorized(h, 100_000);
    h.clock.advance(5 * MINUTE);
    const answer = await h.confirm(id, confirmation(new Date(T0.getTime() + 4 * MINUTE)));
    expect(answer.status).toBe(200);
    const data = schemas.successEnvelope(schemas.confirmResult).parse(answer.body).data;
    expect(data).toMatchObject({
      authorizationId: id,
      status: 'CONFIRMED',
      contractId: expect.stringMatching(/^ctr_/),
    });
    expect(data.principal).toEqual(money.brl(100_000));
    expect(data.installments?.map((i) => i.amount.amount)).toEqual([33_334, 33_333, 33_333]);
    expect(money.sum(data.installments!.map((i) => i.amount))).toEqual(data.principal);
    // Due monthly after the invoice date (São Paulo calendar).
    expect(data.installments?.map((i) => i.dueDate)).toEqual(['2026-04-02', '2026-05-02', '2026-06-02']);
  });

  it('creates the contract once: a second confirm with the same invoice answers the same contractId', async () => {
    const h = harness();
    const id = await authorized(h);
    const first = await h.confirm(id, confirmation(T0));
    const second = await h.confirm(id, confirmation(T0));
    expect(second.status).toBe(200);
    expect(second.body.data.contractId).toBe(first.body.data.contractId);
    const other = await h.confirm(id, { ...confirmation(T0), invoiceNumber: 'NF-99' });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({
      code: 'invalid_state_transition',
      details: [{ field: 'status' }],
    });
  });

  it('R-06: a confirm arriving late is accepted when the invoice was issued within the 15 minutes', async () => {
    const h = harness();
    const id = await authorized(h);
    h.clock.advance(40 * MINUTE);
    const answer = await h.confirm(id, confirmation(new Date(T0.getTime() + 14 * MINUTE)));
    expect(answer.status).toBe(200);
    expect(answer.body.data.status).toBe('CONFIRMED');
  });

  it('R-06: a confirm for an invoice issued after expiry is authorization_expired', async () => {
    const h = harness();
    const id = await authorized(h);
    h.clock.advance(20 * MINUTE);
    const answer = await h.confirm(id, confirmation(new Date(T0.getTime() + 15 * MINUTE + 1)));
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({
      code: 'authorization_expired',
      details: [{ field: 'invoicedAt' }],
    });
  });

  it('R-10: a late confirm cannot revive an authorization whose IMEI was financed again meanwhile', async () => {
    const h = harness();
    const id = await authorized(h);
    h.clock.advance(16 * MINUTE);
    expect((await h.authorize(cart({ clientTaxId: '11144477735' }))).body.data.authorized).toBe(true);
    const late = await h.confirm(id, confirmation(new Date(T0.getTime() + 10 * MINUTE)));
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('imei_already_financed');
  });

  it('R-10: a CONFIRMED financing keeps its IMEI beyond the 15 minutes', async () => {
    const h = harness();
    const id = await authorized(h);
    await h.confirm(id, confirmation(T0));
    h.clock.advance(30 * 24 * 60 * MINUTE);
    expect(
      (await h.authorize(cart({ clientTaxId: '11144477735' }), { token: await h.freshToken() })).body.error
        .code,
    ).toBe('imei_already_financed');
  });

  it('an unknown authorization is authorization_not_found (404)', async () => {
    const h = harness();
    const answer = await h.confirm('auth_nope', confirmation(T0));
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('authorization_not_found');
  });

  it('a cancelled sale cannot be confirmed; nor can one whose cancellation is being verified', async () => {
    const h = harness();
    const id = await authorized(h);
    const cancel = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(cancel.body.data.verification).toBe('PENDING');
    const answer = await h.confirm(id, confirmation(T0));
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('invalid_state_transition');
  });

  it('validates the invoice data: the NF-e key has 44 characters, invoicedAt is UTC', async () => {
    const h = harness();
    const id = await authorized(h);
    const answer = await h.confirm(id, {
      ...confirmation(T0),
      nfeAccessKey: '123',
      invoicedAt: '2026-03-02 12:00',
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'invoicedAt',
      'nfeAccessKey',
    ]);
  });
});
