// The PostgreSQL baseline: bare node:http + pg writing what a minimal authorize must, one authorization and one idempotency row.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import pg from 'pg';

const FIFTEEN_MINUTES_MS = 15 * 60_000;

/**
 * Both rows in ONE statement (atomic, one round trip), prepared once per connection: the least a
 * server can ask of PostgreSQL for a durable, replayable authorize. Same tables, so the same unique
 * indexes judge it (R-10's active IMEI, the proposal slot, the idempotency primary key).
 */
const WRITE = {
  name: 'raw_authorize',
  text: `WITH answered AS (
    INSERT INTO fin_idempotency_keys
      (client_id, idem_key, fingerprint, owner, claimed_at, lease_until, completed_at, response)
    VALUES ($1, $2, $3, $4, $5, $5, $5, $6)
  )
  INSERT INTO fin_authorizations (authorization_id, client_id, status, version, issued_at, expires_at,
    updated_at, client_tax_id, store_id, imei, grand_total_cents, cart, proposal_id, proposal_use)
  VALUES ($4, $1, 'AUTHORIZED', 1, $5, $7, $5, $8, $9, $10, $11, $12, $4, 0)`,
};

interface Cart {
  clientTaxId: string;
  storeId: string;
  imei: string;
  totals: { grandTotal: { amount: number } };
}

/** `max` connections, as the store's pool (default 10). */
export function rawPgServer(connectionString: string, max = 10): { server: Server; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString, max });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let cart: Cart;
      try {
        cart = JSON.parse(text) as Cart;
      } catch {
        response.writeHead(400).end();
        return;
      }
      const id = randomUUID();
      const now = new Date();
      const expiresAt = new Date(now.getTime() + FIFTEEN_MINUTES_MS);
      const answer = JSON.stringify({
        success: true,
        message: 'Venda autorizada.',
        timestamp: now.toISOString(),
        requestId: randomUUID(),
        data: {
          authorized: true,
          authorizationId: id,
          status: 'AUTHORIZED',
          expiresAt: expiresAt.toISOString(),
        },
        error: null,
      });
      try {
        await pool.query({
          ...WRITE,
          values: [
            // The bearer token is the partner's client id (bench/figures/server.ts), as ours resolves it.
            request.headers.authorization?.slice('Bearer '.length) ?? 'bench-pos',
            request.headers['idempotency-key'],
            createHash('sha256').update(text).digest('hex'),
            id,
            now,
            answer,
            expiresAt,
            cart.clientTaxId,
            cart.storeId,
            cart.imei,
            cart.totals.grandTotal.amount,
            text,
          ],
        });
      } catch {
        response.writeHead(500).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  return { server, close: () => pool.end() };
}
