// The SaleSearch port: the partner POS's `POST /v1/sales/search`, which R-08 verification trusts over the notice.
import type { SaleSearchRequest, SaleSearchResult, SaleStatus } from '@fin/core';

/**
 * One per partner (`clients[].saleSearch`). `PosClient#sales` from `@fin/pos-client` implements it;
 * the result may be the `data` object (`{ sales }`) or the list itself. An error with `status: 404`
 * (whatever its code) means no sale, like an empty list; any other throw means the POS could not answer:
 * the cancellation stays pending and the verifier tries again later.
 */
export interface SaleSearch {
  search(query: SaleSearchRequest): Promise<SaleSearchResult | readonly SaleStatus[]>;
}
