// POST /v1/sales/authorize through service.fetch, the proposal lookup order, validation.
import { money, schemas } from '@fin/core';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, deviceImei, harness, MINUTE, PARTNER_B, T0 } from './support/harness.js';

describe('authorize', () => {
  it('R-06: a positive authorization is valid 15 minutes from issue, stated in expiresAt', async () => {
    const h = harness();
    const answer = await h.authorize(cart());
    expect(answer.status).toBe(200);
    expect(schemas.successEnvelope(schemas.authorizeResult).parse(answer.body).data).toEqual({
      authorized: true,
      authorizationId: expect.stringMatching(/^auth_/),
      status: 'AUTHORIZED',
      expiresAt: new Date(T0.getTime() + 15 * MINUTE).toISOString(),
      message: expect.any(String),
    });
  });

  it('R-07: a credit refusal is HTTP 200 with authorized: false and a declineReason', async () => {
    const h = harness();
    const answer = await h.authorize(cart({ clientTaxId: '00000000353' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      error: null,
      data: { authorized: false, declineReason: 'CREDIT_POLICY', message: expect.stringMatching(/\S/) },
    });
    expect(answer.body.data.authorizationId).toBeUndefined();
  });

  it('R-02: items plus services must equal grandTotal exactly, or total_mismatch names the field', async () => {
    const h = harness();
    const body = cart({ services: [9_990] });
    body.totals.grandTotal = money.brl(body.totals.grandTotal.amount + 1);
    const answer = await h.authorize(body);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({
      code: 'total_mismatch',
      legacyCode: 'FA3001',
      details: [{ field: 'totals.grandTotal', issue: expect.stringContaining('259990') }],
    });
  });

  it('R-02: subtotals that do not add up are refused too, one detail each', async () => {
    const h = harness();
    const body = cart({ services: [1_000] });
    body.totals.productsTotal = money.brl(1);
    body.totals.servicesTotal = money.brl(2);
    const answer = await h.authorize(body);
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'totals.productsTotal',
      'totals.servicesTotal',
    ]);
  });

  it('R-02: grandTotal must equal the amount of the approved proposal to the cent', async () => {
    const h = harness();
    await h.service.proposals.approve({
      clientTaxId: CUSTOMER,
      storeId: 'store-a1',
      amount: money.brl(250_000),
    });
    const off = await h.authorize(cart({ price: 249_999 }));
    expect(off.status).toBe(422);
    expect(off.body.error).toMatchObject({
      code: 'total_mismatch',
      details: [{ field: 'totals.grandTotal', issue: expect.stringContaining('approved') }],
    });
    expect((await h.authorize(cart({ price: 250_000 }))).body.data.authorized).toBe(true);
  });

  it('DESIGN 1: an approved proposal is used before any credit analysis', async () => {
    const h = harness();
    // This CPF would be declined by the engine: the team's own approval prevails.
    await h.service.proposals.approve({
      clientTaxId: '00000000353',
      storeId: 'store-a1',
      amount: money.brl(250_000),
    });
    const answer = await h.authorize(cart({ clientTaxId: '00000000353' }));
    expect(answer.body.data.authorized).toBe(true);
  });

  it('R-10: a second authorization for the same IMEI while the first is active is imei_already_financed', async () => {
    const h = harness();
    expect((await h.authorize(cart())).body.data.authorized).toBe(true);
    h.clock.advance(14 * MINUTE);
    const second = await h.authorize(cart({ clientTaxId: '11144477735' }));
    expect(second.status).toBe(422);
    expect(second.body.error).toMatchObject({ code: 'imei_already_financed', legacyCode: 'FA3003' });
  });

  it('R-10 and R-06: once the first authorization expired unconfirmed, the IMEI can be authorized again', async () => {
    const h = harness();
    await h.authorize(cart());
    h.clock.advance(15 * MINUTE);
    expect((await h.authorize(cart())).body.data.authorized).toBe(true);
  });

  it('R-10: 50 concurrent authorizations of one IMEI with different keys give exactly one authorized: true', async () => {
    const h = harness();
    await h.token();
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.authorize(cart())));
    expect(answers.filter((a) => a.body.data?.authorized === true)).toHaveLength(1);
    const others = answers.filter((a) => a.body.data?.authorized !== true);
    expect(new Set(others.map((a) => `${a.status} ${a.body.error?.code}`))).toEqual(
      new Set(['422 imei_already_financed']),
    );
  });

  it('a storeId outside the partner’s stores is store_not_found', async () => {
    const h = harness();
    const answer = await h.authorize(cart({ storeId: PARTNER_B.storeIds[0] }));
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ code: 'store_not_found', details: [{ field: 'storeId' }] });
  });

  it('a currency other than BRL is unsupported_currency (422), naming the field', async () => {
    const h = harness();
    const body = JSON.parse(JSON.stringify(cart())) as unknown as {
      items: { unitPrice: { currency: string } }[];
    };
    body.items[0]!.unitPrice.currency = 'USD';
    const answer = await h.authorize(body);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({
      code: 'unsupported_currency',
      details: [{ field: 'items.0.unitPrice.currency', issue: 'currency must be BRL' }],
    });
  });

  it('schema violations are validation_error with one detail per field', async () => {
    const h = harness();
    const body = { ...cart(), imei: '123', clientTaxId: undefined, items: [] };
    const answer = await h.authorize(body);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'clientTaxId',
      'imei',
      'items',
    ]);
  });

  it('amounts must be integer cents: a float amount is a validation_error', async () => {
    const h = harness();
    const body = JSON.parse(JSON.stringify(cart())) as unknown as {
      totals: { grandTotal: { amount: number } };
    };
    body.totals.grandTotal.amount = 2500.5;
    const answer = await h.authorize(body);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toContainEqual({
      field: 'totals.grandTotal.amount',
      issue: expect.any(String),
    });
  });

  it('a credit engine that does not answer is a 503 service_unavailable with Retry-After, never a decline', async () => {
    const h = harness();
    const answer = await h.authorize(cart({ clientTaxId: '00000000787' }));
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('service_unavailable');
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('different devices of one customer are authorized side by side', async () => {
    const h = harness();
    const first = await h.authorize(cart({ imei: deviceImei(10) }));
    const second = await h.authorize(cart({ imei: deviceImei(11) }));
    expect([first.body.data.authorized, second.body.data.authorized]).toEqual([true, true]);
  });
});
