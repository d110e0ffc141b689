// The catalog snapshot of one sync: plain JSON records, keyed so that two snapshots can be compared.
import type { Employee, Plan, Product, Service, Store } from '@fin/core';

/** A plan as one store sells it. */
export type StorePlan = Plan & { storeId: string };
/** A product as one plan of one store lists it (the price may differ between plans); no stock, by design. */
export type StoreProduct = Product & { storeId: string; planId: string };
/** A service offered with one smartphone SKU in one store. */
export type StoreService = Service & { storeId: string; sku: string };

/**
 * Everything the daily sync read. Plain JSON (dates as ISO text), so it can be stored and passed back
 * as `previous` tomorrow. Employees and stores are the partner's whole lists; plans, products and
 * services cover `storeIds` only.
 */
export interface CatalogSnapshot {
  syncedAt: string;
  storeIds: string[];
  employees: Employee[];
  stores: Store[];
  plans: StorePlan[];
  products: StoreProduct[];
  services: StoreService[];
}

/** The identity of a record of each kind, stable from one day to the next. */
export const recordKeys = {
  employees: (employee: Employee) => employee.cpf,
  stores: (store: Store) => store.storeId,
  plans: (plan: StorePlan) => `${plan.storeId}/${plan.planId}`,
  products: (product: StoreProduct) => `${product.storeId}/${product.planId}/${product.sku}`,
  services: (service: StoreService) => `${service.storeId}/${service.sku}/${service.serviceId}`,
} as const;
