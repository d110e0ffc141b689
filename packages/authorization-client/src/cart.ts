// buildCart: the authorization request from items and services, totals computed in integer cents.
import { type AuthorizeRequest, cpf, FinInputError, imei, money, schemas } from '@fin/core';
import * as z from 'zod';
import { invalidField, parseInput } from './input-error.js';

/** A cart line as the POS knows it; `totalPrice`, when given, must equal `unitPrice` x `quantity`. */
const cartLine = schemas.cartItem.extend({ totalPrice: schemas.money.optional() });
export type CartLine = z.input<typeof cartLine>;

const cartInput = z.object({
  client: z.object({ name: z.string(), taxId: z.string(), phoneNumber: z.string() }),
  seller: z.object({ id: z.string(), taxId: z.string(), name: z.string() }),
  storeId: schemas.storeContext,
  planId: z.string(),
  imei: z.string(),
  items: z.array(cartLine),
  services: z.array(schemas.cartService).default([]),
});

/**
 * What `buildCart` takes: who buys, who sells, where, which plan and device, what is in the cart.
 * `client.taxId` and `seller.taxId` are CPFs without mask; amounts are `{ amount: <cents>, currency: 'BRL' }`.
 */
export type CartInput = z.input<typeof cartInput>;

/** The body of `POST /v1/sales/authorize`, totals included. */
export type Cart = z.output<typeof schemas.authorizeRequest>;

/**
 * Builds the authorization request. Line totals are `unitPrice` x `quantity`, `productsTotal` and
 * `servicesTotal` their sums and `grandTotal` the sum of both, all in integer cents, so R-02 holds by
 * construction. Rejects early, as FinInputError: a CPF or IMEI whose check digits fail, a quantity that is
 * not a positive integer (`validation_error`), an amount not in BRL (`unsupported_currency`), a given
 * line total that is not unit price x quantity (`total_mismatch`).
 */
export function buildCart(input: CartInput): Cart {
  const { client, seller, storeId, planId, imei: device, items, services } = parseInput(cartInput, input);
  if (!cpf.isValid(client.taxId))
    throw invalidField('client.taxId', 'CPF must be 11 digits with valid check digits');
  if (!cpf.isValid(seller.taxId))
    throw invalidField('seller.taxId', 'CPF must be 11 digits with valid check digits');
  if (!imei.isValid(device)) throw invalidField('imei', 'IMEI must be 15 digits with a valid check digit');

  const lines = items.map((item, index) => {
    const totalPrice = money.multiply(item.unitPrice, item.quantity);
    if (item.totalPrice && !money.equals(item.totalPrice, totalPrice)) {
      throw new FinInputError({
        code: 'total_mismatch',
        details: [
          {
            field: `items.${index}.totalPrice`,
            issue: `must be unitPrice x quantity = ${totalPrice.amount} cents`,
          },
        ],
      });
    }
    return { ...item, totalPrice };
  });
  const productsTotal = money.sum(lines.map((line) => line.totalPrice));
  const servicesTotal = money.sum(services.map((service) => service.price));

  const request: AuthorizeRequest = {
    clientName: client.name,
    clientTaxId: client.taxId,
    clientPhoneNumber: client.phoneNumber,
    sellerId: seller.id,
    sellerTaxId: seller.taxId,
    sellerName: seller.name,
    storeId,
    planId,
    imei: device,
    items: lines,
    services,
    totals: { productsTotal, servicesTotal, grandTotal: money.add(productsTotal, servicesTotal) },
  };
  return parseInput(schemas.authorizeRequest, request);
}
