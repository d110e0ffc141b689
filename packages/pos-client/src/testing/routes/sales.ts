// POST /v1/sales/search on the simulated partner: sales by customer CPF or by IMEI, most recent first.
import { endpoints } from '@fin/core';
import { findSales } from '../data/dataset.js';
import { fail, ok } from '../respond.js';
import { type Exchange, jsonBody, validate } from './exchange.js';

/** Exactly one of `taxId` or `imei` (422 otherwise); no sale found is a 404 with the partner's code (default `resource_not_found`). */
export async function searchSales(exchange: Exchange) {
  const body = await jsonBody(exchange);
  if ('response' in body) return body.response;
  const search = validate(exchange, endpoints.partnerPos.searchSales.body.schema, body.value);
  if ('response' in search) return search.response;
  const found = findSales(exchange.state.dataset, search.value);
  if (found.length === 0) {
    return fail(exchange.context, exchange.state.variants.saleNotFoundCode, {
      status: 404,
      message: 'Nenhuma venda encontrada.',
    });
  }
  return ok(exchange.context, { sales: found });
}
