// What a test or a demo changes on a running simulated partner: employees, catalog, stock, sales and its reading of the spec.
import type { Employee, Product, SaleSearchRequest, SaleStatus, SaleStatusValue } from '@fin/core';
import {
  byName,
  cancel,
  type Dataset,
  employeeOf,
  findSales,
  type InvoiceData,
  invoice,
  issueSale,
  makeSeller,
  type SimulatedSeller,
} from './data/dataset.js';

export interface EmployeeControls {
  /**
   * Dismisses employees: they vanish from `GET /v1/employees` and can no longer log in, with no event,
   * as the spec describes a departure. Give CPFs, or `{ count }` for the last ones listed. Returns them.
   */
  remove(which: readonly string[] | { count: number }): Employee[];
  /** Hires `count` new employees (sellers who can log in), at `storeId` or round robin; returns them. */
  hire(options: { count: number; storeId?: string }): SimulatedSeller[];
}

export interface CatalogControls {
  /** Changes a product of one store's catalog (price, name ...); the SKU stays. Returns the new product. */
  updateProduct(storeId: string, sku: string, patch: Partial<Omit<Product, 'sku' | 'stock'>>): Product;
  /** Takes a product out of one store's catalog. */
  removeProduct(storeId: string, sku: string): void;
  /** Sets the stock `GET /v1/stock` and the barcode lookup report. */
  setStock(storeId: string, sku: string, quantity: number): void;
}

/**
 * Choices a partner writing its Partner POS API from the spec alone may make where the spec leaves room.
 * The defaults are ours (the simulator's usual answers); each other value is a real partner's reading.
 */
export interface PartnerVariants {
  /** The count's name in `GET /v1/stock`: `stock`, as on Product (default), or `quantity`. */
  stockField: 'stock' | 'quantity';
  /** The code of sale search's "no sale found" 404, which the spec does not name. Default `resource_not_found`. */
  saleNotFoundCode: string;
  /** `true` (default): answers echo the caller's `X-Request-Id`; `false`: they carry an id of the partner's own. */
  echoRequestId: boolean;
  /** The `message` of an IMEI refusal: `operational` (default) text, `empty` (''), or `missing`. */
  imeiRefusalMessage: 'operational' | 'empty' | 'missing';
  /**
   * Stock reservation (optional, v1.1): `supported` (default), or a partner without it answering every
   * reservation path with 404 `not-found` or 501 `not-implemented`.
   */
  reservations: 'supported' | 'not-found' | 'not-implemented';
}

export const defaultPartnerVariants: Readonly<PartnerVariants> = Object.freeze({
  stockField: 'stock',
  saleNotFoundCode: 'resource_not_found',
  echoRequestId: true,
  imeiRefusalMessage: 'operational',
  reservations: 'supported',
});

export interface PartnerControls {
  /** The variants in force now. */
  readonly variants: Readonly<PartnerVariants>;
  /** Changes some variants for the next requests; the others stay. */
  set(variants: Partial<PartnerVariants>): void;
  /** Back to the defaults. */
  reset(): void;
}

/** Which sale: by its number, or the most recent one of an IMEI. */
export type SaleRef = { saleNumber: string } | { imei: string };

/**
 * The controls the financing side's cancellation and confirmation tests need: register the sale an
 * authorization led to, then flip it to ACTIVE (invoiced) or CANCELLED and watch the service react.
 */
export interface SaleControls {
  /**
   * Registers a sale of `imei` to the customer `taxId`, PENDING unless `status` says otherwise. A known
   * device takes its store and leaves the shelf; an unknown IMEI is added to `storeId` (default the
   * first store). ACTIVE gets invoice data (issued unless given), CANCELLED a cancellation date.
   */
  register(init: {
    imei: string;
    taxId: string;
    storeId?: string;
    status?: SaleStatusValue;
    saleDate?: string;
    invoice?: InvoiceData;
  }): SaleStatus;
  /**
   * Moves a sale to `status`: ACTIVE issues an invoice number and a 44-digit NF-e key (or takes yours),
   * CANCELLED sets `cancellationDate` (default now) and puts the device back in stock, PENDING clears both.
   */
  setStatus(
    ref: SaleRef,
    status: SaleStatusValue,
    options?: InvoiceData & { cancelledAt?: string },
  ): SaleStatus;
  /** The sales `POST /v1/sales/search` would answer, most recent first. */
  find(criteria: SaleSearchRequest): SaleStatus[];
}

export function createControls(
  dataset: Dataset,
  variants: PartnerVariants,
  now: () => Date,
  /** Called when a sale is invoiced (becomes ACTIVE): the simulation commits the hold of its IMEI. */
  onInvoiced: (imei: string) => void = () => {},
) {
  const storeById = (storeId: string) => {
    const store = dataset.stores.find((candidate) => candidate.storeId === storeId);
    if (!store) throw new Error(`simulated POS: no store ${storeId}`);
    return store;
  };
  const entryOf = (storeId: string, sku: string) => {
    const entry = dataset.catalog.get(storeById(storeId).storeId)!.get(sku);
    if (!entry) throw new Error(`simulated POS: no product ${sku} in store ${storeId}`);
    return entry;
  };
  const recordOf = (ref: SaleRef) => {
    const matches = dataset.sales.filter((record) =>
      'saleNumber' in ref ? record.sale.saleNumber === ref.saleNumber : record.imei === ref.imei,
    );
    const record = matches.sort((a, b) => b.sale.saleDate.localeCompare(a.sale.saleDate))[0];
    if (!record)
      throw new Error(`simulated POS: no sale for ${'saleNumber' in ref ? ref.saleNumber : 'that IMEI'}`);
    return record;
  };

  const employees: EmployeeControls = {
    remove(which) {
      const cpfs = Array.isArray(which)
        ? new Set(which)
        : new Set(dataset.sellers.slice(-(which as { count: number }).count).map((seller) => seller.cpf));
      const removed = dataset.sellers.filter((seller) => cpfs.has(seller.cpf));
      dataset.sellers = dataset.sellers.filter((seller) => !cpfs.has(seller.cpf));
      return removed.map(employeeOf);
    },
    hire({ count, storeId }) {
      const hired = Array.from({ length: count }, () => {
        dataset.sequence.seller += 1;
        const n = dataset.sequence.seller;
        const store = storeId ? storeById(storeId) : dataset.stores[n % dataset.stores.length]!;
        return makeSeller(dataset, n, store);
      });
      dataset.sellers = [...dataset.sellers, ...hired].sort(byName);
      return hired;
    },
  };

  const catalog: CatalogControls = {
    updateProduct(storeId, sku, patch) {
      const entry = entryOf(storeId, sku);
      entry.product = { ...entry.product, ...patch, sku };
      return entry.product;
    },
    removeProduct(storeId, sku) {
      entryOf(storeId, sku);
      dataset.catalog.get(storeId)!.delete(sku);
    },
    setStock(storeId, sku, quantity) {
      const entry = entryOf(storeId, sku);
      entry.stock = quantity;
      entry.stockUpdatedAt = now().toISOString();
    },
  };

  const applyStatus = (
    record: Dataset['sales'][number],
    status: SaleStatusValue,
    options: InvoiceData & { cancelledAt?: string } = {},
  ) => {
    const { sale } = record;
    const device = dataset.devices.get(record.imei);
    if (status === 'ACTIVE') {
      invoice(dataset, storeById(record.storeId), sale, options);
      onInvoiced(record.imei);
    }
    if (status === 'CANCELLED') {
      if (!sale.invoiceNumber) invoice(dataset, storeById(record.storeId), sale, options);
      cancel(sale, options.cancelledAt ?? now().toISOString());
    }
    if (status === 'PENDING') {
      Object.assign(sale, {
        status,
        cancellationDate: null,
        invoiceNumber: undefined,
        nfeAccessKey: undefined,
      });
    }
    if (device) device.inStock = status === 'CANCELLED';
    return structuredClone(sale);
  };

  const sales: SaleControls = {
    register(init) {
      const known = dataset.devices.get(init.imei);
      const store = storeById(known?.storeId ?? init.storeId ?? dataset.stores[0]!.storeId);
      if (!known) {
        const entries = [...dataset.catalog.get(store.storeId)!.values()];
        const smartphone = entries.find((entry) => entry.product.productType === 'SMARTPHONE') ?? entries[0]!;
        dataset.devices.set(init.imei, {
          imei: init.imei,
          storeId: store.storeId,
          sku: smartphone.product.sku,
          inStock: false,
        });
      }
      const record = issueSale(dataset, store, {
        imei: init.imei,
        taxId: init.taxId,
        saleDate: init.saleDate ?? now().toISOString(),
      });
      dataset.sales.push(record);
      return applyStatus(record, init.status ?? 'PENDING', init.invoice);
    },
    setStatus: (ref, status, options) => applyStatus(recordOf(ref), status, options),
    find: (criteria) => findSales(dataset, criteria),
  };

  const partner: PartnerControls = {
    get variants() {
      return { ...variants };
    },
    set: (patch) => {
      Object.assign(variants, patch);
    },
    reset: () => {
      Object.assign(variants, defaultPartnerVariants);
    },
  };

  return { employees, catalog, sales, partner };
}
