// The catalog endpoints of the simulated partner: employees, stores, plans, products, barcode and services.
import { endpoints } from '@fin/core';
import { employeeOf } from '../data/dataset.js';
import { fail, ok } from '../respond.js';
import { type Exchange, queryObject, storeQuery, validate } from './exchange.js';
import { paginate } from './paginate.js';

const api = endpoints.partnerPos;

/** Only active employees are listed; one removed simply stops appearing (spec section 6). */
export function listEmployees(exchange: Exchange) {
  const query = validate(exchange, api.listEmployees.query, queryObject(exchange));
  if ('response' in query) return query.response;
  const { items, pagination } = paginate(exchange.state.dataset.sellers.map(employeeOf), query.value);
  return ok(exchange.context, { employees: items, pagination });
}

export function listStores(exchange: Exchange) {
  const query = validate(exchange, api.listStores.query, queryObject(exchange));
  if ('response' in query) return query.response;
  const { items, pagination } = paginate(exchange.state.dataset.stores, query.value);
  return ok(exchange.context, { stores: items, pagination });
}

export function listPlans(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.listPlans.query);
  if ('response' in scoped) return scoped.response;
  return ok(exchange.context, { plans: exchange.state.dataset.plans });
}

/** The products a plan lists, without stock (the synchronized catalog omits it by design). */
export function listProducts(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.listProducts.query);
  if ('response' in scoped) return scoped.response;
  const { planId } = scoped.query;
  if (!exchange.state.dataset.plans.some((plan) => plan.planId === planId)) {
    return fail(exchange.context, 'resource_not_found', { message: 'Plano não encontrado nesta loja.' });
  }
  const entries = [...exchange.state.dataset.catalog.get(scoped.store.storeId)!.values()];
  const products = entries.filter((entry) => entry.planIds.includes(planId)).map((entry) => entry.product);
  const { items, pagination } = paginate(products, scoped.query);
  return ok(exchange.context, { products: items, pagination });
}

/** smartphones and accessories by barcode, with current stock. */
export function productByBarcode(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.getProductByBarcode.query);
  if ('response' in scoped) return scoped.response;
  const entries = exchange.state.dataset.catalog.get(scoped.store.storeId)!.values();
  const entry = [...entries].find((candidate) => candidate.barcode === scoped.query.barcode);
  if (!entry) {
    return fail(exchange.context, 'resource_not_found', { message: 'Código de barras não encontrado.' });
  }
  return ok(exchange.context, { ...entry.product, stock: entry.stock });
}

/** Warranties, insurance and protections of a smartphone SKU; an accessory has none. */
export function listServices(exchange: Exchange) {
  const scoped = storeQuery(exchange, api.listServices.query);
  if ('response' in scoped) return scoped.response;
  const { sku } = scoped.query;
  if (!exchange.state.dataset.catalog.get(scoped.store.storeId)!.has(sku)) {
    return fail(exchange.context, 'resource_not_found', { message: 'Produto não encontrado nesta loja.' });
  }
  return ok(exchange.context, { services: exchange.state.dataset.services.get(sku) ?? [] });
}
