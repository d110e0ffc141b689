// answerClientErrors(server): Node's own refusals (malformed request, oversized headers, request timeout) answered with the error envelope, as every other answer.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Clock, type ErrorCode, systemClock } from '@fin/core';
import { failure } from './envelope.js';

/** What Node reports (`clientError`'s `error.code`) mapped to our answer; any other parse error is 400. */
const CODES: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'request_header_fields_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/** The raw HTTP/1.1 bytes of an envelope answer: the parser failed, so no `ServerResponse` exists to write it. */
export function clientErrorResponse(error: { code?: string }, now: Date): string {
  const code = CODES[error.code ?? ''] ?? 'bad_request';
  const answer = failure({ requestId: undefined, now }, code);
  const text = JSON.stringify(answer.body);
  const headers: Record<string, string> = {
    ...answer.headers,
    'content-length': String(Buffer.byteLength(text)),
    // The request was never read whole: nothing ran, and the connection cannot carry another one.
    'x-processing-time-ms': '0',
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${text}`;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Makes `server` answer the requests Node refuses before any listener sees them (a malformed request line
 * or header, headers past `maxHeaderSize`, a request past `requestTimeout`/`headersTimeout`) with the error
 * envelope, `X-Processing-Time-Ms: 0` and `Connection: close`, instead of Node's bare `400`/`431`/`408`.
 * A socket that can no longer be written (reset, half-closed) is simply destroyed. Returns `server`.
 */
export function answerClientErrors<S extends Server>(
  server: S,
  { clock = systemClock }: { clock?: Clock } = {},
): S {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error, clock.now()));
  });
  return server;
}
