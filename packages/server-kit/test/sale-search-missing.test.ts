// R-08 without a sale search: the service says once, at start, which clients' cancellations will stay PENDING.
import type { LogEntry } from '@fin/core';
import { describe, expect, it } from 'vitest';
import { cart, harness, PARTNER_A, PARTNER_B, saleSearchDouble } from './support/harness.js';

const missing = (logs: LogEntry[]) => logs.filter((entry) => entry.event === 'service.sale_search_missing');

describe('a client registered without saleSearch', () => {
  it('R-08: one warning at start names the clients whose cancellations cannot be verified, and what to set', async () => {
    const { saleSearch } = saleSearchDouble();
    const h = harness({ clients: [PARTNER_A, { ...PARTNER_B, saleSearch }] });
    expect(missing(h.logs)).toEqual([
      expect.objectContaining({
        clientIds: ['partner-a'],
        message: expect.stringMatching(/cannot be verified and stay PENDING.*clients\[\]\.saleSearch/s),
      }),
    ]);

    // Requests and worker runs do not repeat it.
    const id = (await h.authorize(cart())).body.data.authorizationId as string;
    const cancel = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(cancel.body.data).toMatchObject({ verification: 'PENDING', financingCancelled: false });
    await h.service.workers.verifyCancellations();
    expect(missing(h.logs)).toHaveLength(1);
  });

  it('says nothing when every client has a sale search', () => {
    const { saleSearch } = saleSearchDouble();
    const h = harness({ clients: [{ ...PARTNER_A, saleSearch }] });
    expect(missing(h.logs)).toEqual([]);
  });
});
