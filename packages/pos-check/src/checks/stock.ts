// GET /v1/stock: the count of the SKU asked in the store asked, named `stock` as on Product (DESIGN 8); `quantity` is a finding.
import { answerText, type Check, successData } from '../check.js';

export const stock: Check = {
  id: 'stock',
  title: 'Stock: the current count of a SKU, named stock',
  async run({ probe, options, facts, violation, finding }) {
    const sku = await facts.smartphoneSku();
    const exchange = await probe.send('getStock', { query: { storeId: options.storeId, sku } });
    const data = successData(exchange) as Record<string, unknown> | undefined;
    if (!data) {
      return violation(
        exchange.endpoint,
        `the stock of a SKU of the test store; expected HTTP 200, got ${answerText(exchange)}`,
        'answer GET /v1/stock?storeId=&sku= with data { sku, storeId, stock, updatedAt }',
      );
    }
    if (data.sku !== sku || data.storeId !== options.storeId) {
      violation(
        exchange.endpoint,
        'the answer names another SKU or store than the one asked',
        'answer with the sku and storeId of the query',
      );
    }
    if (data.stock === undefined && data.quantity !== undefined) {
      finding(
        exchange.endpoint,
        'the count is named `quantity`; @fin/pos-client reads it as `stock`, other readers may not',
        'name the count `stock`, as Product does (docs/openapi/partner-pos.json, StockLevel)',
      );
    }
  },
};
