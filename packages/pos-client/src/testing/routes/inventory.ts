// The real-time inventory endpoints of the simulated partner: stock of a SKU and IMEI validation.
import { endpoints, imei } from '@fin/core';
import { fail, ok } from '../respond.js';
import { type Exchange, storeQuery } from './exchange.js';

const api = endpoints.partnerPos;

/** `GET /v1/stock` in the shape settled in DESIGN.md 8: `{ sku, storeId, stock, updatedAt }` (or `quantity`, as the variant says). */
export function stockOf(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.getStock.query);
  if ('response' in scoped) return scoped.response;
  const entry = exchange.state.dataset.catalog.get(scoped.store.storeId)!.get(scoped.query.sku);
  if (!entry)
    return fail(exchange.context, 'resource_not_found', { message: 'Produto não encontrado nesta loja.' });
  return ok(exchange.context, {
    sku: entry.product.sku,
    storeId: scoped.store.storeId,
    [exchange.state.variants.stockField]: entry.stock,
    updatedAt: entry.stockUpdatedAt,
    ...reservedOf(exchange, scoped.store.storeId, entry.product.sku),
  });
}

/** v1.1 (SR-9): the units held by active reservations, shown only while some are held (v1.0 answers stay as they were). */
function reservedOf(exchange: Exchange, storeId: string, sku: string) {
  if (exchange.state.variants.reservations !== 'supported') return {};
  const reserved = exchange.state.reservations.book.reserved(storeId, sku, exchange.context.now);
  return reserved > 0 ? { reserved } : {};
}

/** An IMEI refusal's `message` as this partner writes it: the operational text, empty, or left out. */
function refusal(exchange: Exchange, answer: Record<string, unknown>, message: string) {
  const kind = exchange.state.variants.imeiRefusalMessage;
  if (kind === 'missing') return ok(exchange.context, answer);
  return ok(exchange.context, { ...answer, message: kind === 'empty' ? '' : message });
}

/**
 * what the IMEI is and whether this store holds it; nothing is reserved. A malformed IMEI is
 * 422; a 15-digit one failing Luhn, unknown here or already sold is a 200 with the reason in `message`.
 */
export function validateImei(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.validateImei.query);
  if ('response' in scoped) return scoped.response;
  if (!imei.isValid(scoped.query.imei)) {
    return refusal(
      exchange,
      { imeiValid: false, inStock: false },
      'IMEI inválido: confira os 15 dígitos na caixa ou com *#06#.',
    );
  }
  const device = exchange.state.dataset.devices.get(scoped.query.imei);
  if (!device) {
    return refusal(
      exchange,
      { imeiValid: true, inStock: false },
      'Aparelho não encontrado no estoque desta loja.',
    );
  }
  if (device.storeId !== scoped.store.storeId) {
    // Beyond the spec's fields: the store that holds it, so the seller knows where the device is.
    return refusal(
      exchange,
      { imeiValid: true, inStock: false, storeId: device.storeId },
      `Aparelho do estoque de outra loja (${device.storeId}): não pode ser vendido aqui.`,
    );
  }
  const { product } = exchange.state.dataset.catalog.get(device.storeId)!.get(device.sku)!;
  const { sku, name, brand, model, description, storage } = product;
  const found = { imeiValid: true, inStock: device.inStock, sku, name, brand, model, description, storage };
  return device.inStock
    ? ok(exchange.context, { ...found, message: 'Aparelho disponível para venda.' })
    : refusal(exchange, found, 'Aparelho já vendido: não está mais no estoque.');
}
