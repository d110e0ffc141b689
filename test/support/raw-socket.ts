// A hostile peer on a raw socket (node:net): sends a request's head and a few body bytes, then resets the connection.
import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

export interface PartialRequest {
  path: string;
  headers: Record<string, string>;
  /** The bytes sent of a body whose declared length is larger. */
  partialBody: string;
  /** `Content-Length` announced (more than `partialBody`). */
  declaredLength?: number;
}

/**
 * Writes the head and `partialBody`, waits until `server` has parsed the head (its `request` event), then
 * resets the connection (TCP RST): what an anonymous client can do to any listener.
 */
export async function resetMidBody(server: Server, request: PartialRequest): Promise<void> {
  const { port } = server.address() as AddressInfo;
  const arrived = once(server, 'request');
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const head = [
    `POST ${request.path} HTTP/1.1`,
    `host: 127.0.0.1:${port}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${request.declaredLength ?? request.partialBody.length + 512}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head + request.partialBody);
  await arrived;
  socket.resetAndDestroy();
  await once(socket, 'close');
}

/** Records the unhandled rejections of the process while `watch` is on (what would exit a service). */
export function unhandledRejections() {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', record);
  return { seen, stop: () => process.off('unhandledRejection', record) };
}
