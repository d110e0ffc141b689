// What the Store keeps, as zod schemas: one source for the TypeScript types and for reading rows back.
import { schemas } from '@fin/core';
import * as z from 'zod';

/** Any JSON value: what a JSON or JSONB column holds. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A credit proposal: approved by the financing team (`MANUAL`) or by the CreditEngine. Immutable once stored. */
export const proposalRecord = z.object({
  proposalId: z.string().min(1),
  clientTaxId: schemas.cpf,
  storeId: schemas.shortId,
  /** The approved amount: R-02 compares `grandTotal` with it, R-11 uses it as the reuse ceiling base. */
  amount: schemas.money,
  installments: z.number().int().min(1).max(99),
  approvedAt: schemas.utcDateTime,
  source: z.enum(['MANUAL', 'CREDIT_ENGINE']),
});
export type ProposalRecord = z.infer<typeof proposalRecord>;

/** The cancellation notice of R-08 and how far its verification through the partner's sale search got. */
export const cancellationRecord = z.object({
  reason: z.string(),
  description: z.string().optional(),
  /** When the POS says it cancelled (optional in the notice). */
  cancelledAt: schemas.utcDateTime.optional(),
  noticedAt: schemas.utcDateTime,
  verification: schemas.cancellationVerification,
  /** Sale searches tried so far. */
  attempts: z.number().int().min(0),
  /** When the verifier should search again; null once VERIFIED or CONTRADICTED, or once it gave up (still PENDING). */
  nextAttemptAt: schemas.utcDateTime.nullable(),
  verifiedAt: schemas.utcDateTime.nullable(),
  /** Why the last search did not settle it (redacted text, for operators). */
  lastOutcome: z.string().optional(),
});
export type CancellationRecord = z.infer<typeof cancellationRecord>;

/** The credit contract created once by confirm (or by the confirmation poller). */
export const contractRecord = z.object({
  contractId: z.string().min(1),
  principal: schemas.money,
  installments: z.array(schemas.installment).min(1),
  createdAt: schemas.utcDateTime,
});
export type ContractRecord = z.infer<typeof contractRecord>;

/**
 * One authorization. `status` is the stored status: an `AUTHORIZED` record whose `expiresAt` has passed
 * is expired even before a writer stores `EXPIRED` (readers use `effectiveStatus`).
 */
export const authorizationRecord = z.object({
  authorizationId: z.string().min(1),
  /** Tenant: the API client that created it; no other client may see it. */
  clientId: z.string().min(1),
  status: schemas.authorizationStatus,
  /** Optimistic concurrency: every successful `updateAuthorization` adds one. */
  version: z.number().int().min(1),
  issuedAt: schemas.utcDateTime,
  expiresAt: schemas.utcDateTime,
  updatedAt: schemas.utcDateTime,
  correlationId: z.string().optional(),
  clientTaxId: schemas.cpf,
  storeId: schemas.shortId,
  imei: schemas.imei,
  grandTotal: schemas.money,
  /** The cart as validated (services defaulted to []). */
  cart: schemas.authorizeRequest,
  proposalId: z.string().min(1),
  /** 0 for the proposal's first use, k for its k-th reuse under R-11. */
  proposalUse: z.number().int().min(0),
  confirmation: schemas.confirmRequest.nullable(),
  confirmedAt: schemas.utcDateTime.nullable(),
  contract: contractRecord.nullable(),
  cancellation: cancellationRecord.nullable(),
});
export type AuthorizationRecord = z.infer<typeof authorizationRecord>;

/** A system token, kept only as the SHA-256 of its value. */
export const tokenRecord = z.object({
  tokenHash: z.string().min(1),
  clientId: z.string().min(1),
  scopes: z.array(z.string()),
  environment: z.string(),
  issuedAt: schemas.utcDateTime,
  expiresAt: schemas.utcDateTime,
  /**
   * RFC 8705 `cnf` `x5t#S256`: the token was issued over mutual TLS and is good only on a connection with
   * that certificate. Absent: not bound.
   */
  certificateSha256: z.string().min(1).optional(),
});
export type TokenRecord = z.infer<typeof tokenRecord>;

/** A response as plain data: what idempotency stores and replays, and what the edge turns into HTTP. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: JsonValue;
}
