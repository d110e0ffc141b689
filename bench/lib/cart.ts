// A valid authorization cart and a stream of fresh Luhn-valid IMEIs, so R-10 never refuses a bench request.
import { type AuthorizeRequest, cpf, imei } from '@fin/core';

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
export function benchCart(
  deviceImei: string,
  storeId = BENCH_STORE_ID,
  clientTaxId = BENCH_CLIENT_TAX_ID,
): AuthorizeRequest {
  return {
    clientName: 'Maria Bench',
    clientTaxId,
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

/** The body completed by the first `width`-digit suffix that `isValid` accepts (check digits by search). */
function complete(body: string, width: number, isValid: (s: string) => boolean): string {
  for (let n = 0; n < 10 ** width; n++) {
    const candidate = body + String(n).padStart(width, '0');
    if (isValid(candidate)) return candidate;
  }
  throw new Error(`no check digits complete ${body}`);
}

/**
 * Fresh IMEIs: a 14-digit body (a two-digit prefix, then a counter) and the Luhn digit core's validator
 * accepts. Different prefixes give disjoint streams (one per process or per run).
 */
export function imeiStream(prefix: number): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    return complete(
      `${String(prefix).padStart(2, '0')}${String(counter).padStart(12, '0')}`,
      1,
      imei.isValid,
    );
  };
}

/**
 * Fresh customers: one CPF per sale, as at a real counter. (With a single CPF, every proposal ever approved
 * would belong to one customer, a case no store meets.) A one-digit prefix (1-9), a counter, check digits.
 */
export function cpfStream(prefix: number): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    return complete(`${prefix}${String(counter).padStart(8, '0')}`, 2, cpf.isValid);
  };
}

/** Carts of fresh sales: each with a new IMEI and a new customer; `prefix` (10-99) keeps streams apart. */
export function cartStream(prefix: number, storeId = BENCH_STORE_ID): () => AuthorizeRequest {
  const nextImei = imeiStream(prefix);
  const nextCpf = cpfStream((prefix % 9) + 1);
  return () => benchCart(nextImei(), storeId, nextCpf());
}
