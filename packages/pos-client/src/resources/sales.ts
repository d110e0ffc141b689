// Sale search: billing and cancellation status by customer CPF or by IMEI; the CPF travels in the body, never the URL.
import { endpoints, FinApiError, FinInputError, type SaleStatus } from '@fin/core';
import {
  type ApiPromise,
  apiPromise,
  type ResponseMeta,
  type WithResponse,
  withResponse,
} from '@fin/core/transport';
import type { z } from 'zod';
import { type CallOptions, type ClientContext, callOptions } from '../client-context.js';
import { exactlyOne, type Only } from '../exclusive.js';

const search = endpoints.partnerPos.searchSales;

type ByTaxId = z.infer<(typeof search.body.schema.options)[0]>;
type ByImei = z.infer<(typeof search.body.schema.options)[1]>;

/** Exactly one of `taxId` (the customer CPF, 11 digits) or `imei` (15 digits): the type refuses both. */
export type SaleSearchCriteria = Only<ByTaxId, ByImei> | Only<ByImei, ByTaxId>;

export interface SalesResource {
  /**
   * The partner's sales for a CPF or an IMEI, most recent first as the partner sends them. No sale
   * found is an empty list: the spec gives it a 404 without naming a code, so any 404 error answer of
   * this endpoint (`resource_not_found`, `sale_not_found`, `not_found` ...) is one. Its answer is the result's `lastResponse`.
   * Other errors throw.
   */
  search(criteria: SaleSearchCriteria, options?: CallOptions): ApiPromise<WithResponse<SaleStatus[]>>;
}

/** The metadata of the 404 that means "no sale": the partner's answer, read from the error. */
const notFoundMeta = (error: FinApiError): ResponseMeta =>
  Object.defineProperty(notFoundFields(error), 'response', { value: error.response, enumerable: false });

const notFoundFields = (error: FinApiError): ResponseMeta => ({
  status: error.status,
  requestId: error.requestId ?? '',
  serverRequestId: error.serverRequestId,
  requestIds: [...error.requestIds],
  correlationId: error.correlationId ?? '',
  idempotencyKey: undefined,
  processingTimeMs: undefined,
  message: error.message,
  attempts: error.requestIds.length,
  headers: error.headers,
});

export const salesResource = (context: ClientContext): SalesResource => ({
  search: (criteria, options = {}) => apiPromise(searchSales(context, criteria, options)),
});

async function searchSales(
  context: ClientContext,
  criteria: SaleSearchCriteria,
  options: CallOptions,
): Promise<WithResponse<SaleStatus[]>> {
  const key = exactlyOne(criteria, ['taxId', 'imei']);
  if (!key) {
    throw new FinInputError({
      code: 'validation_error',
      details: [{ field: 'taxId|imei', issue: 'exactly one of taxId or imei is required' }],
    });
  }
  const body = key === 'taxId' ? { taxId: criteria.taxId } : { imei: criteria.imei };
  try {
    const { data, meta } = await context.http.request({
      ...endpoints.endpointRequest(search, { body }),
      ...callOptions(options),
    });
    return withResponse(data.sales, meta);
  } catch (error) {
    // Only an error envelope: a 404 body we cannot read (a wrong baseUrl's HTML page) still throws.
    if (error instanceof FinApiError && error.status === 404) return withResponse([], notFoundMeta(error));
    throw error;
  }
}
