// buildCart: totals in integer cents by construction, and bad input rejected before any request.
import { buildCart, type CartInput, FinInputError } from '@fin/authorization-client';
import { MAX_SALE_AMOUNT_CENTS, money, schemas } from '@fin/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cartInput } from './fixtures.js';

const base: CartInput = cartInput({
  items: [
    ...cartInput().items,
    { sku: 'CASE-1', productType: 'CASE', name: 'Capa', quantity: 2, unitPrice: money.brl(4_995) },
  ],
});

const rejection = (input: CartInput) => {
  try {
    buildCart(input);
  } catch (error) {
    return error;
  }
  throw new Error('buildCart accepted the input');
};

describe('buildCart (R-02)', () => {
  it('computes line totals, productsTotal, servicesTotal and grandTotal in cents', () => {
    const cart = buildCart(base);
    expect(cart.items.map((item) => item.totalPrice.amount)).toEqual([189_990, 9_990]);
    expect(cart.totals).toEqual({
      productsTotal: money.brl(199_980),
      servicesTotal: money.brl(29_900),
      grandTotal: money.brl(229_880),
    });
    expect(cart).toMatchObject({
      clientName: base.client.name,
      clientTaxId: base.client.taxId,
      clientPhoneNumber: base.client.phoneNumber,
      sellerId: base.seller.id,
      sellerTaxId: base.seller.taxId,
      sellerName: base.seller.name,
      storeId: base.storeId,
      planId: base.planId,
      imei: base.imei,
    });
    expect(schemas.authorizeRequest.safeParse(cart).success).toBe(true);
  });

  it('R-02 and C-18: for any cart, grandTotal is the exact sum, or the cart is refused before sending when it is 0 or over the ceiling', () => {
    const amount = fc.integer({ min: 0, max: 1_000_000 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ unit: amount, quantity: fc.integer({ min: 1, max: 20 }) }), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.array(amount, { maxLength: 5 }),
        (lines, services) => {
          const build = () =>
            buildCart({
              ...base,
              items: lines.map((line, i) => ({
                sku: `SKU-${i}`,
                productType: 'ACCESSORY',
                name: `Item ${i}`,
                quantity: line.quantity,
                unitPrice: money.brl(line.unit),
              })),
              services: services.map((price, i) => ({
                serviceId: `s-${i}`,
                type: 'INSURANCE',
                name: 'Seguro',
                price: money.brl(price),
              })),
            });
          const expected =
            lines.reduce((total, line) => total + line.unit * line.quantity, 0) +
            services.reduce((total, p) => total + p, 0);
          if (expected >= 1 && expected <= MAX_SALE_AMOUNT_CENTS) {
            expect(build().totals.grandTotal.amount).toBe(expected);
          } else {
            expect(build).toThrow(
              expect.objectContaining({
                code: 'validation_error',
                details: expect.arrayContaining([
                  expect.objectContaining({ field: 'totals.grandTotal.amount' }),
                ]),
              }),
            );
          }
        },
      ),
    );
  });

  it('C-18: negative prices and a zero total are refused before sending, naming the field', () => {
    const item = { sku: 'A', productType: 'ACCESSORY', name: 'Capa', quantity: 1 };
    expect(() => buildCart({ ...base, services: [], items: [{ ...item, unitPrice: money.brl(0) }] })).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
    expect(() =>
      buildCart({ ...base, items: [{ ...item, unitPrice: { amount: -500, currency: 'BRL' } }] }),
    ).toThrow(
      expect.objectContaining({
        code: 'validation_error',
        details: expect.arrayContaining([expect.objectContaining({ field: 'items.0.unitPrice.amount' })]),
      }),
    );
  });

  it('keeps a given line total that equals unit price x quantity, and services default to none', () => {
    const { services: _none, ...withoutServices } = base;
    const cart = buildCart({
      ...withoutServices,
      items: [{ ...base.items[1]!, totalPrice: money.brl(9_990) }],
    });
    expect(cart.services).toEqual([]);
    expect(cart.totals.grandTotal).toEqual(money.brl(9_990));
  });

  it.each([
    [
      'a client CPF with wrong check digits',
      { client: { ...base.client, taxId: '00000000192' } },
      'client.taxId',
    ],
    ['a masked seller CPF', { seller: { ...base.seller, taxId: '987.654.321-00' } }, 'seller.taxId'],
    ['an IMEI with a wrong check digit', { imei: '490154203237519' }, 'imei'],
    ['a quantity of zero', { items: [{ ...base.items[0]!, quantity: 0 }] }, 'items.0.quantity'],
    ['a fractional quantity', { items: [{ ...base.items[0]!, quantity: 1.5 }] }, 'items.0.quantity'],
    [
      'a float amount',
      { items: [{ ...base.items[0]!, unitPrice: { amount: 1899.9, currency: 'BRL' as const } }] },
      'items.0.unitPrice.amount',
    ],
    ['an empty cart', { items: [] }, 'items'],
  ])('rejects %s with validation_error naming the field', (_, change, field) => {
    const error = rejection({ ...base, ...change } as CartInput);
    expect(error).toBeInstanceOf(FinInputError);
    expect(error).toMatchObject({
      code: 'validation_error',
      details: expect.arrayContaining([expect.objectContaining({ field })]),
    });
  });

  it('rejects an amount in another currency with unsupported_currency', () => {
    const item = {
      ...base.items[0]!,
      unitPrice: { amount: 100, currency: 'USD' },
    } as unknown as CartInput['items'][number];
    expect(rejection({ ...base, items: [item] })).toMatchObject({ code: 'unsupported_currency' });
  });

  it('rejects a line total that is not unit price x quantity with total_mismatch', () => {
    const error = rejection({ ...base, items: [{ ...base.items[1]!, totalPrice: money.brl(9_999) }] });
    expect(error).toMatchObject({
      code: 'total_mismatch',
      details: [expect.objectContaining({ field: 'items.0.totalPrice' })],
    });
  });
});
