// Spec section 7: the codes and statuses a partner answers to a missing, bad or narrow token, a resource not found and invalid input.
import { catalogEntry, type ErrorCode } from '@fin/core';
import { answerText, type Check, type CheckContext, errorOf, expectError } from '../check.js';
import { accessTokenOf, requestToken } from '../facts.js';
import type { Exchange } from '../probe.js';

/** Expects the catalog's status and `code` for `exchange`. */
const expectCatalog = (
  context: CheckContext,
  exchange: Exchange,
  code: ErrorCode,
  situation: string,
  fix: string,
) => expectError(context, exchange, { status: catalogEntry(code)!.status, code }, situation, fix);

/** Expects `status` with an error envelope, any code (the spec names none). */
function expectStatus(
  context: CheckContext,
  exchange: Exchange,
  status: number,
  situation: string,
  fix: string,
) {
  if (exchange.status === status && errorOf(exchange)) return;
  context.violation(
    exchange.endpoint,
    `${situation}; expected HTTP ${status} with an error envelope, got ${answerText(exchange)}`,
    fix,
  );
}

export const errorCodes: Check = {
  id: 'errors',
  title: 'Errors of spec section 7: 401, 403, 404 and 422 with their codes',
  async run(context) {
    const { probe, options, facts } = context;
    const storeId = options.storeId;
    const stockQuery = { storeId, sku: await facts.smartphoneSku() };

    const noToken = await probe.send('getStock', { query: stockQuery, authorization: null });
    expectCatalog(
      context,
      noToken,
      'missing_token',
      'a call without Authorization',
      'answer a call without a bearer token with HTTP 401 `missing_token`',
    );
    const badToken = await probe.send('getStock', {
      query: stockQuery,
      authorization: `Bearer not-a-token-${crypto.randomUUID()}`,
    });
    expectCatalog(
      context,
      badToken,
      'invalid_token',
      'a call with an unknown token',
      'answer a malformed or unknown bearer token with HTTP 401 `invalid_token`',
    );

    const narrow = accessTokenOf(await requestToken(probe, options, { scope: 'catalog:read' }));
    if (narrow) {
      const outOfScope = await probe.send('getStock', {
        query: stockQuery,
        authorization: `Bearer ${narrow}`,
        clientToken: true,
      });
      expectCatalog(
        context,
        outOfScope,
        'insufficient_scope',
        'GET /v1/stock with a catalog:read token',
        'check the token scopes: stock and IMEI need `inventory:read`, sale search `sales:read`; answer HTTP 403 `insufficient_scope`',
      );
    }

    const unknownSku = await probe.send('listServices', {
      query: { storeId, sku: `FIN-CHECK-${Date.now()}` },
    });
    expectStatus(
      context,
      unknownSku,
      404,
      'services of a SKU the store does not have',
      'answer a catalog resource not found with HTTP 404 and an error envelope (`resource_not_found`)',
    );
    const shortImei = await probe.send('validateImei', {
      query: { storeId, imei: options.imei.slice(0, 14) },
    });
    expectStatus(
      context,
      shortImei,
      422,
      'an IMEI of 14 digits',
      'answer an IMEI that is not 15 digits with HTTP 422 naming the field in details',
    );
    const both = await probe.send('searchSales', { body: { taxId: options.saleTaxId, imei: options.imei } });
    expectStatus(
      context,
      both,
      422,
      'sale search with both taxId and imei',
      'answer a sale search without exactly one of taxId or imei with HTTP 422',
    );
  },
};
