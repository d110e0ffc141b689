// every catalog, stock and IMEI call of one store, reachable only through `pos.store(storeId)`.
import {
  endpoints,
  type ImeiValidation,
  type Plan,
  type Product,
  type ProductWithStock,
  type Service,
  type StockLevel,
  schemas,
} from '@fin/core';
import {
  type ApiPromise,
  apiPromise,
  type QueryValue,
  type WithResponse,
  withResponse,
} from '@fin/core/transport';
import { type CallOptions, type ClientContext, callOptions } from '../client-context.js';
import type { ListOptions, PagedList } from '../pagination/paged-list.js';
import { withRefusalMessage } from './imei-refusal-message.js';
import { pagedResource } from './paged-resource.js';

import { createStockReservations, type StockReservations } from './stock-reservations.js';
import { requireStoreId } from './store-id.js';

export interface StorePlans {
  /** The carrier plans the store sells. */
  list(options?: CallOptions): ApiPromise<WithResponse<Plan[]>>;
}

export interface StoreProducts {
  /** The products a plan lists, without stock (stock is read in real time). Paged, like `pos.employees.list()`. */
  list(query: { planId: string } & ListOptions): PagedList<Product>;
  /** a smartphone or accessory by barcode (6 to 32 characters), with current stock. */
  byBarcode(barcode: string, options?: CallOptions): ApiPromise<WithResponse<ProductWithStock>>;
}

export interface StoreServices {
  /** Warranties, insurance and protections of a smartphone SKU. */
  list(query: { sku: string }, options?: CallOptions): ApiPromise<WithResponse<Service[]>>;
}

/** Stock of the store, and its holds (v1.1, optional per partner: see `StockReservations`). */
export interface StoreStock extends StockReservations {
  /**
   * Current stock of one SKU: `{ sku, storeId, stock, updatedAt }` (DESIGN 8). A partner answering
   * `quantity` instead is read the same way: the result always names it `stock`.
   */
  get(sku: string, options?: CallOptions): ApiPromise<WithResponse<StockLevel>>;
}

export interface StoreImei {
  /**
   * what the IMEI is and whether this store holds it. Non-binding: nothing is reserved. Show
   * `message` to the seller as it comes: a refusal the partner sent without one gets an operational
   * pt-BR text from the client (invalid IMEI, another store's device, not in stock), and a warning is logged.
   */
  validate(imei: string, options?: CallOptions): ApiPromise<WithResponse<ImeiValidation>>;
}

/** The calls of one store; made by `pos.store(storeId)`, which refuses an empty or over-long storeId. */
export interface StoreScope {
  readonly storeId: string;
  readonly plans: StorePlans;
  readonly products: StoreProducts;
  readonly services: StoreServices;
  readonly stock: StoreStock;
  readonly imei: StoreImei;
}

/** The answer's data itself as the result. */
const whole = <T extends object>(data: T): T => data;

export function createStoreScope(context: ClientContext, storeIdInput: string): StoreScope {
  const storeId = requireStoreId(storeIdInput);
  const api = endpoints.partnerPos;
  /** One read of this store: `pick` takes the result out of the answer's data; `lastResponse` is its answer. */
  const read = async <E extends endpoints.EndpointDefinition, T extends object>(
    endpoint: E,
    query: Record<string, QueryValue>,
    options: CallOptions = {},
    pick: (data: endpoints.EndpointData<E>) => T,
  ): Promise<WithResponse<T>> => {
    const { data, meta } = await context.http.request({
      ...endpoints.endpointRequest(endpoint, { query: { storeId, ...query } }),
      ...callOptions(options),
    });
    return withResponse(pick(data), meta);
  };

  const readStock = async (sku: string, options: CallOptions): Promise<WithResponse<StockLevel>> => {
    // The registry's schema names the count `stock`; this reader also takes a partner's `quantity`.
    const { data, meta } = await context.http.request({
      ...endpoints.endpointRequest(api.getStock, { query: { storeId, sku } }),
      schema: schemas.partnerStockLevel,
      ...callOptions(options),
    });
    return withResponse(data, meta);
  };
  const validateImei = async (imei: string, options?: CallOptions) => {
    const checked = await read(api.validateImei, { imei }, options, whole);
    const meta = checked.lastResponse;
    const explained = withRefusalMessage(checked, { storeId, requestId: meta.requestId, log: context.log });
    return withResponse(explained, meta);
  };

  return {
    storeId,
    plans: {
      list: (options) => apiPromise(read(api.listPlans, {}, options, (data) => data.plans)),
    },
    products: {
      list: ({ planId, ...options }) =>
        pagedResource(
          context,
          {
            endpoint: api.listProducts,
            query: { storeId, planId },
            items: (data) => data.products,
            key: (product) => product.sku,
          },
          options,
        ),
      byBarcode: (barcode, options) => apiPromise(read(api.getProductByBarcode, { barcode }, options, whole)),
    },
    services: {
      list: ({ sku }, options) =>
        apiPromise(read(api.listServices, { sku }, options, (data) => data.services)),
    },
    stock: {
      get: (sku, options = {}) => apiPromise(readStock(sku, options)),
      ...createStockReservations(context, storeId),
    },
    imei: {
      validate: (imei, options) => apiPromise(validateImei(imei, options)),
    },
  };
}
