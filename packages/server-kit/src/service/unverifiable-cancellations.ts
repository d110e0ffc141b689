// R-08 needs the partner's sale search: said once, at start, for the clients registered without one.
import type { Logger } from '@fin/core';
import type { ClientRegistration } from '../deps/clients.js';

/**
 * Warns once through `logger` when some clients have no `saleSearch`: their cancellation notices cannot
 * be verified and stay `PENDING`, and their unconfirmed sales are never confirmed by polling.
 */
export function warnUnverifiableCancellations(
  clients: readonly ClientRegistration[],
  logger: Logger | undefined,
): void {
  const clientIds = clients.filter((client) => !client.saleSearch).map((client) => client.clientId);
  if (clientIds.length === 0) return;
  logger?.warn?.({
    event: 'service.sale_search_missing',
    clientIds,
    message:
      'R-08: these clients have no saleSearch, so their cancellations cannot be verified and stay PENDING ' +
      '(and sales they never confirm are not confirmed by polling). Set clients[].saleSearch, for example ' +
      "new PosClient({ baseUrl, clientId, clientSecret, scopes: ['sales:read'] }).sales from @fin/pos-client.",
  });
}
