// S-25 over a real node:http server: toNodeHandler limits failed token requests per peer address, and never the right secret.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultLimits, toNodeHandler } from '@fin/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, PARTNER_A, PARTNER_B } from './support/harness.js';

// Per-client budgets out of the way: this file is about the source (the socket's address).
const h = harness({ limits: { tokenFailuresPerMinute: 1_000 } });
const server = createServer(toNodeHandler(h.service));
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const token = (clientId: string, clientSecret: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });

describe('S-25: failed token requests per source over loopback', () => {
  it('S-25: wrong secrets from one address, for any client ids and whatever X-Forwarded-For says, are answered 429 past the budget; the right secret still gets its token', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < defaultLimits.tokenFailuresPerSourcePerMinute + 5; i++) {
      const response = await token(i % 2 ? PARTNER_A.clientId : `guess-${i}`, 'wrong', {
        'x-forwarded-for': `198.51.100.${i}`,
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, defaultLimits.tokenFailuresPerSourcePerMinute)).toEqual(
      Array(defaultLimits.tokenFailuresPerSourcePerMinute).fill(401),
    );
    expect(new Set(statuses.slice(defaultLimits.tokenFailuresPerSourcePerMinute))).toEqual(new Set([429]));
    expect((await token(PARTNER_A.clientId, PARTNER_A.clientSecret)).status).toBe(200);
    expect((await token(PARTNER_B.clientId, PARTNER_B.clientSecret)).status).toBe(200);
  });
});
