// Logs through the Logger port: one redacted entry per request with ids, outcome and timing; no CPF, IMEI or credential in clear.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, deviceImei, harness } from './support/harness.js';

describe('request logs', () => {
  it('carry requestId, correlationId, outcome and timing for each request', async () => {
    const h = harness();
    const requestId = randomUUID();
    const correlationId = randomUUID();
    await h.authorize(cart(), { headers: { 'x-request-id': requestId, 'x-correlation-id': correlationId } });
    await h.authorize(cart({ clientTaxId: '00000000272', imei: deviceImei(2) }));
    await h.authorize(cart());
    const entries = h.logs.filter((entry) => entry.route === 'authorize');
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      event: 'http.request',
      requestId,
      correlationId,
      clientId: 'partner-a',
      status: 200,
      outcome: 'authorized',
      durationMs: expect.any(Number),
    });
    expect(entries.map((entry) => entry.outcome)).toEqual([
      'authorized',
      'declined',
      'imei_already_financed',
    ]);
    expect(h.logs.find((entry) => entry.route === 'token')).toMatchObject({ outcome: 'ok', status: 200 });
  });

  it('mask CPF and IMEI and never hold a secret or token', async () => {
    const h = harness();
    const token = await h.token();
    await h.authorize(cart());
    await h.tokenRequest({
      grant_type: 'client_credentials',
      client_id: 'partner-a',
      client_secret: 'wrong-secret',
    });
    const text = JSON.stringify(h.logs);
    const entry = h.logs.find((e) => e.route === 'authorize');
    expect(entry).toMatchObject({ clientTaxId: '***.982.247-**', imei: expect.stringMatching(/\*/) });
    for (const secret of [CUSTOMER, deviceImei(1), token, 'secret-a', 'wrong-secret']) {
      expect(text).not.toContain(secret);
    }
  });
});
