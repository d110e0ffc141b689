// Every check of fin-pos-check, in the order they run: the system token first, the checks reading every answer after the probes, limits last.
import type { Check } from '../check.js';
import { barcodeAndServices } from './barcode-services.js';
import { envelope } from './envelope.js';
import { errorCodes } from './errors.js';
import { imeiValidation } from './imei.js';
import { rateLimit } from './limits.js';
import { moneyInCents } from './money.js';
import { noColor } from './no-color.js';
import { clientAuthentication, invalidClient, tokenNoStore, tokenResponse } from './oauth.js';
import { pagination } from './pagination.js';
import { payload } from './payload.js';
import { processingTime } from './processing-time.js';
import { requestId } from './request-id.js';
import { reservationChecks } from './reservations.js';
import { saleSearch } from './sale-search.js';
import { sellerSession } from './seller-session.js';
import { stock } from './stock.js';
import { storeContext } from './store-context.js';
import { transportSecurity } from './transport-security.js';

export const allChecks: readonly Check[] = [
  tokenResponse,
  tokenNoStore,
  clientAuthentication,
  invalidClient,
  sellerSession,
  storeContext,
  pagination,
  barcodeAndServices,
  stock,
  imeiValidation,
  saleSearch,
  ...reservationChecks,
  errorCodes,
  envelope,
  requestId,
  processingTime,
  moneyInCents,
  noColor,
  payload,
  transportSecurity,
  rateLimit,
];
