// buildCart: totals in integer cents by construction, and bad input rejected before any request.
import { buildCart, type CartInput, FinApiError } from '@fin/authorization-client';
import { money, schemas } from '@fin/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const base: CartInput = {
  client: { name: 'Maria Souza', taxId: '52998224725', phoneNumber: '11987654321' },
  seller: { id: 'seller-7', taxId: '39053344705', name: 'João Lima' },
  storeId: 'store-001',
  planId: 'plan-controle',
  imei: '490154203237518',
  items: [
    {
      sku: 'SM-A55',
      productType: 'SMARTPHONE',
      name: 'Galaxy A55',
      quantity: 1,
      unitPrice: money.brl(189_990),
    },
    { sku: 'CASE-1', productType: 'CASE', name: 'Capa', quantity: 2, unitPrice: money.brl(4_995) },
  ],
  services: [
    { serviceId: 'gar-12', type: 'EXTENDED_WARRANTY', name: 'Garantia 12 meses', price: money.brl(29_900) },
  ],
};

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
      clientName: 'Maria Souza',
      clientTaxId: '52998224725',
      clientPhoneNumber: '11987654321',
      sellerId: 'seller-7',
      sellerTaxId: '39053344705',
      sellerName: 'João Lima',
      storeId: 'store-001',
      planId: 'plan-controle',
      imei: '490154203237518',
    });
    expect(schemas.authorizeRequest.safeParse(cart).success).toBe(true);
  });

  it('R-02: for any cart, item totals plus service prices equal grandTotal exactly', () => {
    const amount = fc.integer({ min: 0, max: 10_000_000 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ unit: amount, quantity: fc.integer({ min: 1, max: 999 }) }), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.array(amount, { maxLength: 5 }),
        (lines, services) => {
          const cart = buildCart({
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
          expect(cart.totals.grandTotal.amount).toBe(expected);
          expect(Number.isInteger(cart.totals.grandTotal.amount)).toBe(true);
        },
      ),
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
      { client: { ...base.client, taxId: '52998224726' } },
      'client.taxId',
    ],
    ['a masked seller CPF', { seller: { ...base.seller, taxId: '390.533.447-05' } }, 'seller.taxId'],
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
    expect(error).toBeInstanceOf(FinApiError);
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
