// System tokens in PostgreSQL, found by the SHA-256 of their value only.
import { type TokenRecord, tokenRecord } from '../ports/records.js';
import { type Queryable, query } from './sql.js';

interface TokenRow {
  token_hash: string;
  client_id: string;
  scopes: string[];
  environment: string;
  issued_at: Date;
  expires_at: Date;
  certificate_sha256: string | null;
}

export async function saveToken(db: Queryable, token: TokenRecord): Promise<void> {
  await query(
    db,
    `INSERT INTO fin_tokens (token_hash, client_id, scopes, environment, issued_at, expires_at, certificate_sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (token_hash) DO NOTHING`,
    [
      token.tokenHash,
      token.clientId,
      token.scopes,
      token.environment,
      token.issuedAt,
      token.expiresAt,
      token.certificateSha256 ?? null,
    ],
  );
}

export async function findToken(db: Queryable, tokenHash: string): Promise<TokenRecord | undefined> {
  const { rows } = await query<TokenRow>(db, 'SELECT * FROM fin_tokens WHERE token_hash = $1', [tokenHash]);
  const row = rows[0];
  return (
    row &&
    tokenRecord.parse({
      tokenHash: row.token_hash,
      clientId: row.client_id,
      scopes: row.scopes,
      environment: row.environment,
      issuedAt: row.issued_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      ...(row.certificate_sha256 === null ? {} : { certificateSha256: row.certificate_sha256 }),
    })
  );
}
