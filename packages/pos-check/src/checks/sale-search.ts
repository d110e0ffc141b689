// Sale search: a POST with the CPF in the JSON body finds the test sale; no match is a 404 (another code than ours is a finding).
import { answerText, type Check, errorOf, successData } from '../check.js';
import type { Exchange } from '../probe.js';

const salesOf = (exchange: Exchange) => {
  const sales = (successData(exchange) as { sales?: unknown } | undefined)?.sales;
  return Array.isArray(sales) ? sales : undefined;
};

/** A CPF with valid check digits that no test sale should hold. */
const UNKNOWN_CPF = '39053344705';

export const saleSearch: Check = {
  id: 'sale-search',
  title: 'Sale search: POST with the CPF in the body; no match is a 404',
  async run({ probe, options, violation, finding }) {
    const found = await probe.send('searchSales', { body: { taxId: options.saleTaxId } });
    // The fields of each sale are the payload check's; here, the search finds the sale.
    const sales = salesOf(found);
    if (!sales || sales.length === 0) {
      violation(
        found.endpoint,
        `the test sale's CPF in the JSON body; expected HTTP 200 with data.sales holding the sale, got ${answerText(found)}` +
          (sales ? ' with no sale' : ''),
        'read taxId (or imei) from the JSON body of POST /v1/sales/search: the CPF never travels in a URL (spec section 1); check the --sale-cpf given',
      );
    }
    const none = await probe.send('searchSales', { body: { taxId: UNKNOWN_CPF } });
    const code = errorOf(none)?.code;
    if (none.status === 404 && code === 'resource_not_found') return;
    if (none.status === 404 && code) {
      return finding(
        none.endpoint,
        `no sale found is answered 404 \`${code}\`; @fin/pos-client reads any 404 here as "no sale", other readers may not`,
        'answer no sale found with 404 `resource_not_found`, the code docs/openapi/partner-pos.json shows',
      );
    }
    if (none.status === 200 && salesOf(none)?.length === 0) {
      return finding(
        none.endpoint,
        'no sale found is answered HTTP 200 with an empty list',
        'answer no sale found with 404 `resource_not_found` (spec section 7: 404 for sale search)',
      );
    }
    violation(
      none.endpoint,
      `a CPF without sales; expected HTTP 404 (no sale found), got ${answerText(none)}`,
      'answer a search that finds nothing with 404 and an error envelope (`resource_not_found`)',
    );
  },
};
