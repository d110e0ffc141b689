// The HTTP edge: envelope on every response, X-Request-Id echo, X-Processing-Time-Ms, ids, bodies, routes, node:http.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { schemas } from '@fin/core';
import { toNodeHandler } from '@fin/server-kit';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cart, deviceImei, harness, T0 } from './support/harness.js';

const raw = (h: ReturnType<typeof harness>, path: string, init: RequestInit) =>
  h.service.fetch(new Request(`http://fin.test${path}`, init));

describe('envelope and headers', () => {
  it('every answer is the section 2 envelope, echoes X-Request-Id, times itself in a header only', async () => {
    const h = harness();
    const requestId = randomUUID();
    const answer = await h.authorize(cart(), { headers: { 'x-request-id': requestId } });
    const body = schemas.envelope.parse(answer.body);
    expect(body).toMatchObject({ success: true, requestId, timestamp: T0.toISOString(), error: null });
    expect(answer.headers.get('x-processing-time-ms')).toMatch(/^\d+$/);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    expect(JSON.stringify(answer.body)).not.toMatch(/processing/i);
  });

  it('timestamps are UTC with milliseconds', async () => {
    const h = harness();
    h.clock.set(new Date('2026-05-01T10:20:30.000Z'));
    const answer = await h.authorize(cart(), { token: await h.freshToken() });
    expect(answer.body.timestamp).toBe('2026-05-01T10:20:30.000Z');
  });

  it.each([
    ['missing X-Request-Id', { 'x-request-id': '' }, 'header.X-Request-Id'],
    ['a non-uuid X-Correlation-Id', { 'x-correlation-id': 'abc' }, 'header.X-Correlation-Id'],
  ])('%s is a clear 400 invalid_request_id naming the header', async (_, headers, field) => {
    const h = harness();
    const init = { ...headers };
    const answer = await h.authorize(cart(), { headers: init });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request_id', details: [{ field }] });
    expect(schemas.errorEnvelope.safeParse(answer.body).success).toBe(true);
  });

  it('X-Request-Id and Idempotency-Key are accepted exactly when schemas.uuid accepts them (spec section 5, 8)', async () => {
    const h = harness({ limits: { writesPerMinute: 10_000 } });
    const token = await h.token();
    let device = 100;
    // uuids of every version and case, with one character changed or cut: around the pattern's edges.
    const candidate = fc.oneof(
      fc.uuid(),
      fc.uuid({ version: 4 }).map((u) => u.toUpperCase()),
      fc
        .tuple(fc.uuid({ version: 4 }), fc.nat(35), fc.constantFrom('g', '-', '', 'A', '0', '4', 'c'))
        .map(([u, at, c]) => `${u.slice(0, at)}${c}${u.slice(at + 1)}`),
    );
    await fc.assert(
      fc.asyncProperty(candidate, fc.boolean(), async (value, asKey) => {
        const headers: Record<string, string> = asKey
          ? { 'idempotency-key': value }
          : { 'x-request-id': value };
        const answer = await h.authorize(cart({ imei: deviceImei(device++) }), { token, headers });
        const accepted = schemas.uuid.safeParse(value).success;
        expect(answer.status === 200).toBe(accepted);
        if (!accepted) expect(answer.body.error.code).toBe(asKey ? 'validation_error' : 'invalid_request_id');
      }),
      { numRuns: 100 },
    );
  });

  it('an absent X-Request-Id header (not just empty) is refused too', async () => {
    const h = harness();
    const answer = await raw(h, '/v1/sales/authorize', {
      method: 'POST',
      headers: { 'x-correlation-id': randomUUID(), authorization: `Bearer ${await h.token()}` },
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.details).toEqual([
      { field: 'header.X-Request-Id', issue: expect.any(String) },
    ]);
  });
});

describe('bodies', () => {
  it('a body over the size limit is 413 payload_too_large', async () => {
    const h = harness({ limits: { maxBodyBytes: 1024 } });
    const answer = await h.authorize({ ...cart(), clientName: 'x'.repeat(2000) });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('payload_too_large');
  });

  it('a body that is not JSON is 400 bad_request; a non-JSON content type is 415', async () => {
    const h = harness();
    const broken = await h.authorize('{"clientName": ');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatchObject({
      code: 'bad_request',
      details: [{ field: 'body', issue: 'is not valid JSON' }],
    });
    const text = await h.authorize(JSON.stringify(cart()), { headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
  });

  it('a JSON value that is not an object is a validation_error on the body', async () => {
    const h = harness();
    const answer = await h.authorize('[1,2]');
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([{ field: 'body', issue: expect.any(String) }]);
  });
});

describe('routes', () => {
  it('an unknown path is 404 not_found, a wrong method 405 with Allow, both as envelopes', async () => {
    const h = harness();
    const missing = await raw(h, '/v1/nothing', { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(schemas.errorEnvelope.parse(await missing.json()).error.code).toBe('not_found');
    const get = await raw(h, '/v1/sales/authorize', { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await get.json()).error.code).toBe('method_not_allowed');
  });

  it('after close() the service answers 503', async () => {
    const h = harness();
    await h.service.close();
    const answer = await raw(h, '/v1/sales/authorize', { method: 'POST' });
    expect(answer.status).toBe(503);
  });
});

describe('toNodeHandler on a real loopback server', () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function listen(h: ReturnType<typeof harness>) {
    const server = createServer(toNodeHandler(h.service));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('serves the API over node:http: token, then authorize', async () => {
    const h = harness();
    const base = await listen(h);
    const token = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'partner-a',
        client_secret: 'secret-a',
      }),
    }).then((r) => r.json());
    const answer = await fetch(`${base}/v1/sales/authorize?ignored=1`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'content-type': 'application/json',
        'x-request-id': randomUUID(),
        'x-correlation-id': randomUUID(),
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(cart()),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-processing-time-ms')).toMatch(/^\d+$/);
    expect((await answer.json()).data.authorized).toBe(true);
  });

  it('answers 413 to an oversized body, and the connection still carries the answer', async () => {
    const h = harness({ limits: { maxBodyBytes: 1024 } });
    const base = await listen(h);
    const token = await h.token();
    const answer = await fetch(`${base}/v1/sales/authorize`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-request-id': randomUUID(),
        'x-correlation-id': randomUUID(),
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ ...cart(), clientName: 'x'.repeat(64 * 1024) }),
    });
    expect(answer.status).toBe(413);
    expect((await answer.json()).error.code).toBe('payload_too_large');
  });

  it('works as Express-style middleware after a host body parser (req.body already set)', async () => {
    const h = harness();
    const handler = toNodeHandler(h.service);
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        // What express.urlencoded() leaves behind: the stream consumed, the form parsed into req.body.
        Object.assign(req, {
          body: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
        });
        handler(req, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'partner-a',
        client_secret: 'secret-a',
      }),
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).token_type).toBe('Bearer');
  });
});
