// Honest logs (issue 23): a client still sending its body at the request deadline is a slow client (408, `http.body_timeout` at warn), never a store outage.
import { memoryStore, type Store } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { jsonWriteHeaders } from '../../../test/support/write-headers.js';
import { harness } from './support/harness.js';

/** A body that sends `first` and then nothing more until the test ends it. */
function drippingBody(first: string) {
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      stop = () => controller.close();
    },
  });
  return { stream, stop: () => stop() };
}

const deadline = { limits: { requestDeadlineMs: 200 } };

describe('a dripping request body is a slow client, not a database outage', () => {
  it('the token endpoint: 408 invalid_request (request_timeout), one http.body_timeout warning, no store.unavailable', async () => {
    const h = harness(deadline);
    const body = drippingBody('grant_type=client_credentials&client_id=');
    try {
      const response = await h.service.fetch(
        new Request('http://fin.test/v1/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.stream,
          duplex: 'half',
        } as RequestInit),
      );
      expect(response.status).toBe(408);
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
      expect(response.headers.get('x-processing-time-ms')).not.toBeNull();
    } finally {
      body.stop();
    }
    expect(h.logs.filter((e) => e.event === 'http.body_timeout')).toEqual([
      expect.objectContaining({ route: 'token' }),
    ]);
    expect(h.logs.some((e) => e.event === 'store.unavailable')).toBe(false);
  });

  it('an API write: 408 request_timeout in the envelope, no store.unavailable', async () => {
    const h = harness(deadline);
    const token = await h.token();
    const body = drippingBody('{"storeId":');
    try {
      const response = await h.service.fetch(
        new Request('http://fin.test/v1/sales/authorize', {
          method: 'POST',
          headers: jsonWriteHeaders(token),
          body: body.stream,
          duplex: 'half',
        } as RequestInit),
      );
      expect(response.status).toBe(408);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('request_timeout');
    } finally {
      body.stop();
    }
    expect(h.logs.some((e) => e.event === 'store.unavailable')).toBe(false);
    expect(h.logs.some((e) => e.event === 'http.body_timeout')).toBe(true);
  });

  it('a store that does not answer by the deadline is still the outage: 503 + Retry-After and store.unavailable', async () => {
    const inner = memoryStore();
    const stalled: Store = { ...inner, findToken: () => new Promise(() => {}) };
    const h = harness({ ...deadline, store: stalled });
    const answer = await h.authorize({}, { token: 'a'.repeat(43) });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(h.logs.find((e) => e.event === 'store.unavailable')).toMatchObject({ reason: 'request_deadline' });
    expect(h.logs.some((e) => e.event === 'http.body_timeout')).toBe(false);
  });
});
