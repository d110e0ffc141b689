// A cart whose totals add up (R-02 by construction): the fixture the conformance suite's records carry.
import { type AuthorizeRequest, imei as imeiId, money } from '@fin/core';

/** A valid IMEI (Luhn check digit) built from `n`: different `n`, different device. */
export function deviceImei(n: number): string {
  const body = `35693803${String(n).padStart(6, '0')}`;
  for (let digit = 0; digit < 10; digit++) {
    if (imeiId.isValid(`${body}${digit}`)) return `${body}${digit}`;
  }
  throw new Error('unreachable: one check digit always fits');
}

/** One smartphone at `price` cents (and optional services, in cents) for `clientTaxId` at `storeId`. */
export function cartFixture(options: {
  imei: string;
  clientTaxId: string;
  storeId: string;
  price: number;
  services?: readonly number[];
}): AuthorizeRequest {
  const unitPrice = money.brl(options.price);
  const services = (options.services ?? []).map((cents, i) => ({
    serviceId: `svc-${i}`,
    type: 'INSURANCE',
    name: 'Seguro roubo e furto',
    price: money.brl(cents),
  }));
  const servicesTotal = money.sum(services.map((service) => service.price));
  return {
    clientName: 'Maria Silva',
    clientTaxId: options.clientTaxId,
    clientPhoneNumber: '11987654321',
    sellerId: 'seller-1',
    sellerTaxId: '11144477735',
    sellerName: 'João Souza',
    storeId: options.storeId,
    planId: 'plan-1',
    imei: options.imei,
    items: [
      {
        sku: 'SKU-PHONE',
        productType: 'SMARTPHONE',
        name: 'Galaxy',
        quantity: 1,
        unitPrice,
        totalPrice: unitPrice,
      },
    ],
    services,
    totals: { productsTotal: unitPrice, servicesTotal, grandTotal: money.add(unitPrice, servicesTotal) },
  };
}
