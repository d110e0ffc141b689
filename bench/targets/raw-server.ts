// The baseline: a bare node:http server that reads and parses the JSON body, then answers one fixed envelope.
import { createServer, type Server } from 'node:http';

const answer = JSON.stringify({
  success: true,
  message: 'Venda autorizada.',
  timestamp: '2026-01-01T00:00:00.000Z',
  requestId: '00000000-0000-4000-8000-000000000000',
  data: {
    authorized: true,
    authorizationId: 'auth_baseline',
    status: 'AUTHORIZED',
    expiresAt: '2026-01-01T00:15:00.000Z',
    message: 'Venda autorizada.',
  },
  error: null,
});

export function rawServer(): Server {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        response.writeHead(400).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
}
