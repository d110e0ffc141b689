// `GET /v1/stock` read tolerantly: the count under the spec's Product name `stock` (DESIGN 8), or a partner's `quantity`.
import { schemas } from '@fin/core';
import { z } from 'zod';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{ sku, storeId, stock, updatedAt }`. A partner that names the count `quantity` is read the same way
 * (`stock` wins when both are sent); a count under neither name fails at `data.stock`.
 */
export const partnerStockLevel = z.preprocess(
  (value) =>
    isRecord(value) && value.stock === undefined && value.quantity !== undefined
      ? { ...value, stock: value.quantity }
      : value,
  schemas.stockLevel,
);
