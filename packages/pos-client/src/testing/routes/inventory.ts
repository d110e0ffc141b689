// The real-time inventory endpoints of the simulated partner: stock of a SKU and IMEI validation.
import { imei, schemas } from '@fin/core';
import { fail, ok } from '../respond.js';
import { type Exchange, queryObject, storeOf, validate } from './exchange.js';

/** `GET /v1/stock` in the shape settled in DESIGN.md: `{ sku, storeId, quantity, updatedAt }`. */
export function stockOf(exchange: Exchange) {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope.response;
  const query = validate(exchange, schemas.stockQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  const entry = exchange.state.dataset.catalog.get(scope.store.storeId)!.get(query.value.sku);
  if (!entry)
    return fail(exchange.context, 'resource_not_found', { message: 'Produto não encontrado nesta loja.' });
  return ok(exchange.context, {
    sku: entry.product.sku,
    storeId: scope.store.storeId,
    quantity: entry.stock,
    updatedAt: entry.stockUpdatedAt,
  });
}

/**
 * what the IMEI is and whether this store holds it; nothing is reserved. A malformed IMEI is
 * 422; a 15-digit one failing Luhn, unknown here or already sold is a 200 with the reason in `message`.
 */
export function validateImei(exchange: Exchange) {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope.response;
  const query = validate(exchange, schemas.imeiQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  if (!imei.isValid(query.value.imei)) {
    return ok(exchange.context, {
      imeiValid: false,
      inStock: false,
      message: 'IMEI inválido: confira os 15 dígitos na caixa ou com *#06#.',
    });
  }
  const device = exchange.state.dataset.devices.get(query.value.imei);
  if (!device || device.storeId !== scope.store.storeId) {
    return ok(exchange.context, {
      imeiValid: true,
      inStock: false,
      message: 'Aparelho não encontrado no estoque desta loja.',
    });
  }
  const { product } = exchange.state.dataset.catalog.get(device.storeId)!.get(device.sku)!;
  const { sku, name, brand, model, description, storage } = product;
  return ok(exchange.context, {
    imeiValid: true,
    inStock: device.inStock,
    sku,
    name,
    brand,
    model,
    description,
    storage,
    message: device.inStock
      ? 'Aparelho disponível para venda.'
      : 'Aparelho já vendido: não está mais no estoque.',
  });
}
