// The catalog endpoints of the simulated partner: employees, stores, plans, products, barcode and services.
import { schemas } from '@fin/core';
import { employeeOf } from '../data/dataset.js';
import { fail, ok } from '../respond.js';
import { type Exchange, queryObject, storeOf, validate } from './exchange.js';
import { paginate } from './paginate.js';

/** Only active employees are listed; one removed simply stops appearing (spec section 6). */
export function listEmployees(exchange: Exchange) {
  const query = validate(exchange, schemas.employeesQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  const { items, pagination } = paginate(exchange.state.dataset.sellers.map(employeeOf), query.value);
  return ok(exchange.context, { employees: items, pagination });
}

export function listStores(exchange: Exchange) {
  const query = validate(exchange, schemas.storesQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  const { items, pagination } = paginate(exchange.state.dataset.stores, query.value);
  return ok(exchange.context, { stores: items, pagination });
}

export function listPlans(exchange: Exchange) {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope.response;
  const query = validate(exchange, schemas.plansQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  return ok(exchange.context, { plans: exchange.state.dataset.plans });
}

/** The products a plan lists, without stock (the synchronized catalog omits it by design). */
export function listProducts(exchange: Exchange) {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope.response;
  const query = validate(exchange, schemas.productsQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  const { planId } = query.value;
  if (!exchange.state.dataset.plans.some((plan) => plan.planId === planId)) {
    return fail(exchange.context, 'resource_not_found', { message: 'Plano não encontrado nesta loja.' });
  }
  const entries = [...exchange.state.dataset.catalog.get(scope.store.storeId)!.values()];
  const products = entries.filter((entry) => entry.planIds.includes(planId)).map((entry) => entry.product);
  const { items, pagination } = paginate(products, query.value);
  return ok(exchange.context, { products: items, pagination });
}

/** smartphones and accessories by barcode, with current stock. */
export function productByBarcode(exchange: Exchange) {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope.response;
  const query = validate(exchange, schemas.barcodeQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  const entries = exchange.state.dataset.catalog.get(scope.store.storeId)!.values();
  const entry = [...entries].find((candidate) => candidate.barcode === query.value.barcode);
  if (!entry)
    return fail(exchange.context, 'resource_not_found', { message: 'Código de barras não encontrado.' });
  return ok(exchange.context, { ...entry.product, stock: entry.stock });
}

/** Warranties, insurance and protections of a smartphone SKU; an accessory has none. */
export function listServices(exchange: Exchange) {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope.response;
  const query = validate(exchange, schemas.servicesQuery, queryObject(exchange));
  if ('response' in query) return query.response;
  const { sku } = query.value;
  if (!exchange.state.dataset.catalog.get(scope.store.storeId)!.has(sku)) {
    return fail(exchange.context, 'resource_not_found', { message: 'Produto não encontrado nesta loja.' });
  }
  return ok(exchange.context, { services: exchange.state.dataset.services.get(sku) ?? [] });
}
