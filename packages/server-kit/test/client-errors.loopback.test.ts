// SF-4 (issue 23): what Node refuses before any route runs (bad request line, oversized headers, request timeout) answers the error envelope, over raw sockets.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { catalogEntry, schemas } from '@fin/core';
import { answerClientErrors, toNodeHandler } from '@fin/server-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, T0 } from './support/harness.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** The service behind node:http with Node's timeouts short, so a stalled request is refused soon. */
async function start(): Promise<number> {
  const { service } = harness();
  const server = answerClientErrors(
    createServer(
      { requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 },
      toNodeHandler(service),
    ),
    { clock: { now: () => T0 } },
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Writes `bytes` on a fresh connection and reads everything the server sends until it closes. */
async function raw(port: number, bytes: string) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(bytes);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Map(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function expectEnvelope(answer: Awaited<ReturnType<typeof raw>>, code: string) {
  expect(answer.status).toBe(catalogEntry(code)!.status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('x-processing-time-ms')).toBe('0');
  expect(answer.headers.get('connection')).toBe('close');
  expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.body));
  const envelope = schemas.errorEnvelope.parse(JSON.parse(answer.body));
  expect(envelope.error.code).toBe(code);
  expect(envelope.error.legacyCode).toBe(catalogEntry(code)!.legacyCode);
  expect(envelope.timestamp).toBe(T0.toISOString());
}

describe("SF-4: Node's own refusals answer the error envelope with X-Processing-Time-Ms", () => {
  it('a malformed request line: 400 bad_request', async () => {
    expectEnvelope(await raw(await start(), 'THIS IS NOT HTTP\r\n\r\n'), 'bad_request');
  });

  it('a malformed header: 400 bad_request', async () => {
    expectEnvelope(
      await raw(await start(), 'GET /health HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n'),
      'bad_request',
    );
  });

  it('headers past maxHeaderSize (16 KiB): 431 request_header_fields_too_large', async () => {
    const big = `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    expectEnvelope(await raw(await start(), big), 'request_header_fields_too_large');
  });

  it('a request whose headers never finish within headersTimeout: 408 request_timeout', async () => {
    expectEnvelope(
      await raw(await start(), 'POST /v1/sales/authorize HTTP/1.1\r\nHost: x\r\n'),
      'request_timeout',
    );
  });
});
