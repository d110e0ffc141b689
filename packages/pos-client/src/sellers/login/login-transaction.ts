// The login transaction: what beginLogin hands the caller and completeLogin takes back, plain JSON, valid on any instance until it expires.
import { schemas } from '@fin/core';
import { z } from 'zod';

/** Default time between beginLogin and the callback: 10 minutes. */
export const DEFAULT_LOGIN_TTL_MS = 10 * 60_000;

/**
 * Everything a callback needs, and nothing that logs a seller in by itself: the PKCE `codeVerifier` is only
 * worth something together with the authorization code and this client's own authentication (its
 * certificate or private key, and with `private_key_jwt` its DPoP key), within the code's minute, once
 * (docs/spec-decisions.md, seller login). Keep it server-side (a session row, an encrypted cookie).
 */
export const sellerLoginTransaction = z.object({
  version: z.literal(1),
  issuer: z.string().min(1),
  clientId: z.string().min(1),
  redirectUri: z.string().min(1),
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43).max(128),
  storeId: schemas.shortId.optional(),
  expiresAt: schemas.utcDateTime,
});
export type SellerLoginTransaction = z.infer<typeof sellerLoginTransaction>;
