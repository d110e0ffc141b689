// The sandbox's partner POS: its sale search shows what the POS under test told the API (R-08 verification).
import { type Clock, endpoints, type SaleStatus } from '@fin/core';
import type { SaleSearch } from '@fin/server-kit/store';

/** The call a request makes, as the registry routes it. */
const callOf = endpoints.createEndpointMatcher(endpoints.salesAuthorization);

/**
 * Watches the calls of the POS under test and answers the service's sale search as that POS would: a sale
 * per authorization, `PENDING` once authorized, `ACTIVE` once confirmed, `CANCELLED` once a cancellation
 * is notified (R-08 says the POS notifies only after cancelling). So a cancellation verifies at once and
 * an exchange can reuse its proposal, as with a well-behaved partner.
 */
export function createPosMirror(clock: Clock) {
  const sales = new Map<string, SaleStatus & { imei: string }>();

  const saleSearch: SaleSearch = {
    async search(query) {
      const found = [...sales.values()];
      return { sales: 'imei' in query ? found.filter((sale) => sale.imei === query.imei) : [] };
    },
  };

  /** Forwards one call to `service`, keeping the mirror in step with what it means for the POS. */
  async function forward(
    request: Request,
    service: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    const call = callOf(request.method, new URL(request.url).pathname);
    const operation = call.ok ? call.operationId : undefined;
    const body =
      request.method === 'POST'
        ? await request
            .clone()
            .json()
            .catch(() => undefined)
        : undefined;
    const authorizationId = call.ok ? call.params.id : undefined;
    const sale = authorizationId === undefined ? undefined : sales.get(authorizationId);
    if (sale && operation === 'cancelSale') {
      sales.set(authorizationId as string, {
        ...sale,
        status: 'CANCELLED',
        cancellationDate: clock.now().toISOString(),
      });
    }
    const response = await service(request);
    if (response.status !== 200) return response;
    const data: Record<string, unknown> = await response
      .clone()
      .json()
      .then((envelope: { data?: Record<string, unknown> }) => envelope.data ?? {})
      .catch(() => ({}));
    if (
      operation === 'authorizeSale' &&
      data.authorized === true &&
      typeof data.authorizationId === 'string'
    ) {
      const imei = String(body?.imei);
      sales.set(data.authorizationId, {
        status: 'PENDING',
        saleNumber: data.authorizationId,
        saleDate: clock.now().toISOString(),
        cancellationDate: null,
        imei,
      });
    }
    if (sale && operation === 'confirmSale') {
      sales.set(authorizationId as string, {
        ...sale,
        status: 'ACTIVE',
        saleNumber: String(body?.saleNumber),
        invoiceNumber: String(body?.invoiceNumber),
        nfeAccessKey: String(body?.nfeAccessKey),
      });
    }
    return response;
  }

  return { saleSearch, forward };
}
