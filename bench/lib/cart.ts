// A valid authorization cart and a stream of fresh Luhn-valid IMEIs, so R-10 never refuses a bench request.
import { type AuthorizeRequest, imei } from '@fin/core';

/** Store, plan and CPFs the bench server is configured with (check digits valid). */
export const BENCH_STORE_ID = 'store-bench-001';
export const BENCH_PLAN_ID = 'plan-bench-001';
export const BENCH_CLIENT_TAX_ID = '52998224725';
export const BENCH_SELLER_TAX_ID = '11144477735';

/** Price of the one handset in the cart: R$ 1.999,90 in cents. */
const HANDSET_CENTS = 199_990;
/** Price of the extended warranty: R$ 249,90 in cents. */
const WARRANTY_CENTS = 24_990;
const brl = (amount: number) => ({ amount, currency: 'BRL' as const });

/** A cart whose totals add up for the given IMEI (the reliability suite reuses it, with its own stores). */
export function benchCart(deviceImei: string, storeId = BENCH_STORE_ID): AuthorizeRequest {
  return {
    clientName: 'Maria Bench',
    clientTaxId: BENCH_CLIENT_TAX_ID,
    clientPhoneNumber: '11987654321',
    sellerId: 'seller-bench-001',
    sellerTaxId: BENCH_SELLER_TAX_ID,
    sellerName: 'João Bench',
    storeId,
    planId: BENCH_PLAN_ID,
    imei: deviceImei,
    items: [
      {
        sku: 'SKU-PHONE-001',
        productType: 'SMARTPHONE',
        name: 'Phone X 128GB',
        quantity: 1,
        unitPrice: brl(HANDSET_CENTS),
        totalPrice: brl(HANDSET_CENTS),
      },
    ],
    services: [
      {
        serviceId: 'SRV-WARRANTY-12',
        type: 'EXTENDED_WARRANTY',
        name: 'Garantia 12 meses',
        price: brl(WARRANTY_CENTS),
      },
    ],
    totals: {
      productsTotal: brl(HANDSET_CENTS),
      servicesTotal: brl(WARRANTY_CENTS),
      grandTotal: brl(HANDSET_CENTS + WARRANTY_CENTS),
    },
  };
}

/**
 * Fresh IMEIs: a 14-digit body (a two-digit prefix, then a counter) completed by the one check digit that
 * core's validator accepts. Different prefixes give disjoint streams (one per process or per run).
 */
export function imeiStream(prefix: number): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    const body = `${String(prefix).padStart(2, '0')}${String(counter).padStart(12, '0')}`;
    for (let digit = 0; digit <= 9; digit++) {
      if (imei.isValid(body + digit)) return body + digit;
    }
    throw new Error(`no Luhn digit completes ${body}`);
  };
}
