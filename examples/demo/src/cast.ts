// Who and what the demo sells: fictional customers (valid CPFs), the seller and the phones of the simulated partner.
import { magicValues } from '@fin/authorization-client/testing';
import type { CatalogEntry, SimulatedPos } from '@fin/pos-client/testing';

export interface Customer {
  name: string;
  taxId: string;
  phoneNumber: string;
}

export const customers = {
  /** Buys a phone, then exchanges it. */
  buyer: { name: 'Ana Lima', taxId: '12345678909', phoneNumber: '11987650001' },
  /** Declined by the sandbox credit engine. */
  declined: { name: 'Bruno Reis', taxId: magicValues.cpf.declined, phoneNumber: '11987650002' },
  /** Her cart changed after the proposal. */
  cartChanged: { name: 'Carla Dias', taxId: '98765432100', phoneNumber: '11987650003' },
  /** His cancellation is contradicted by the POS's own sale search. */
  regretful: { name: 'Eduardo Alves', taxId: '45612378955', phoneNumber: '11987650004' },
} as const satisfies Record<string, Customer>;

/** A handset on the shelf and its catalog entry (product, barcode, plans, stock). */
export interface Phone {
  imei: string;
  entry: CatalogEntry;
}

/** The partner's first store, one of its sellers, and the phones and case the scenes use. */
export function partnerCast(sim: SimulatedPos) {
  const storeId = sim.data.stores[0]!.storeId;
  const seller = sim.data.sellers.find((candidate) => candidate.storeId === storeId)!;
  const catalog = sim.data.products(storeId);
  const entryOf = (sku: string) => catalog.find((entry) => entry.product.sku === sku)!;
  const onShelf = sim.data
    .devices({ storeId, inStock: true })
    .map((device): Phone => ({ imei: device.imei, entry: entryOf(device.sku) }));
  const price = (phone: Phone) => phone.entry.product.price.amount;
  // The phone sold first is the second cheapest model in stock, so the exchange can take a cheaper one.
  const models = [
    ...new Map(
      onShelf.filter((phone) => phone.entry.stock > 0).map((p) => [p.entry.product.sku, p]),
    ).values(),
  ].sort((a, b) => price(a) - price(b));
  const first = models[1] ?? models[0]!;
  const others = onShelf.filter((phone) => phone !== first);
  // R-11 (4): the new phone of the exchange may cost up to the approved amount.
  const exchange =
    others.find(
      (phone) => phone.entry.product.sku !== first.entry.product.sku && price(phone) <= price(first),
    ) ?? others[0]!;
  const [declined, cartChanged, regretful] = others.filter((phone) => phone !== exchange);
  return {
    storeId,
    seller,
    phones: { first, exchange, declined: declined!, cartChanged: cartChanged!, regretful: regretful! },
    accessory: catalog.find((entry) => entry.product.productType === 'ACCESSORY')!,
  };
}

export type PartnerCast = ReturnType<typeof partnerCast>;
