// The real-time inventory endpoints of the simulated partner: stock of a SKU and IMEI validation.
import { endpoints, imei } from '@fin/core';
import { fail, ok } from '../respond.js';
import { type Exchange, storeQuery } from './exchange.js';

const api = endpoints.partnerPos;

/** `GET /v1/stock` in the shape settled in DESIGN.md: `{ sku, storeId, quantity, updatedAt }`. */
export function stockOf(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.getStock.query);
  if ('response' in scoped) return scoped.response;
  const entry = exchange.state.dataset.catalog.get(scoped.store.storeId)!.get(scoped.query.sku);
  if (!entry)
    return fail(exchange.context, 'resource_not_found', { message: 'Produto não encontrado nesta loja.' });
  return ok(exchange.context, {
    sku: entry.product.sku,
    storeId: scoped.store.storeId,
    quantity: entry.stock,
    updatedAt: entry.stockUpdatedAt,
  });
}

/**
 * what the IMEI is and whether this store holds it; nothing is reserved. A malformed IMEI is
 * 422; a 15-digit one failing Luhn, unknown here or already sold is a 200 with the reason in `message`.
 */
export function validateImei(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.validateImei.query);
  if ('response' in scoped) return scoped.response;
  if (!imei.isValid(scoped.query.imei)) {
    return ok(exchange.context, {
      imeiValid: false,
      inStock: false,
      message: 'IMEI inválido: confira os 15 dígitos na caixa ou com *#06#.',
    });
  }
  const device = exchange.state.dataset.devices.get(scoped.query.imei);
  if (!device || device.storeId !== scoped.store.storeId) {
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
