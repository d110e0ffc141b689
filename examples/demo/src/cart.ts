// The POS's side of each sale: the cart of a customer and a phone, and the invoice the simulated POS issues once authorized.
import type { CartInput, ConfirmInput } from '@fin/authorization-client';
import type { SaleStatus } from '@fin/core';
import type { SellerSession, StoreService } from '@fin/pos-client';
import type { CatalogEntry } from '@fin/pos-client/testing';
import { confirmationFromSale } from '@fin/server-kit';
import type { Customer, Phone } from './cast.js';
import type { Stage } from './scene.js';

const line = ({ product }: CatalogEntry) => ({
  sku: product.sku,
  productType: product.productType,
  name: product.name,
  quantity: 1,
  unitPrice: product.price,
});

/** The cart `checkout` takes: seller and store from the session, the phone's first plan, optional extras. */
export function orderFor(
  session: SellerSession,
  customer: Customer,
  phone: Phone,
  extras: { services?: StoreService[]; accessories?: CatalogEntry[] } = {},
): CartInput {
  return {
    client: customer,
    seller: { id: session.sellerId, taxId: session.taxId, name: session.sellerName },
    storeId: session.storeId,
    planId: phone.entry.planIds[0]!,
    imei: phone.imei,
    items: [line(phone.entry), ...(extras.accessories ?? []).map(line)],
    services: (extras.services ?? []).map(({ serviceId, type, name, price }) => ({
      serviceId,
      type,
      name,
      price,
    })),
  };
}

/** The POS invoices the sale (the partner now shows it ACTIVE) and hands its NF-e data to confirm. */
export function invoiceAtPartner(
  stage: Stage,
  customer: Customer,
  phone: Phone,
  invoiced?: (sale: SaleStatus) => void,
) {
  return async (): Promise<ConfirmInput> => {
    const sale = stage.partner.sim.sales.register({
      imei: phone.imei,
      taxId: customer.taxId,
      storeId: stage.cast.storeId,
      status: 'ACTIVE',
    });
    invoiced?.(sale);
    const confirmation = confirmationFromSale(sale);
    if (!confirmation) throw new Error(`the partner's sale ${sale.saleNumber} has no invoice data`);
    return confirmation;
  };
}

/** For a step that must not reach invoicing (a decline, a refusal). */
export const mustNotInvoice = async (): Promise<never> => {
  throw new Error('the POS was asked to invoice a sale that must not be authorized');
};
