// The SellerSession of a verified ID token: DESIGN 25's claims mapped to the session v1's login gives.
import { schemas } from '@fin/core';
import { z } from 'zod';
import type { SellerSession } from '../seller-login-result.js';

/**
 * The seller claims of the contract (docs/spec-decisions.md, seller login). `cpf` 11 digits, `store_cnpj`
 * 14 characters (digits or the alphanumeric CNPJ), `store_address` the spec's Address; `is_manager` absent
 * means `role === 'MANAGER'`. Unknown claims are ignored (tolerant reader).
 */
export const sellerIdTokenClaims = z.object({
  sub: z.string().min(1),
  name: z.string(),
  cpf: schemas.cpf,
  store_id: schemas.shortId,
  store_name: z.string(),
  store_cnpj: schemas.cnpj,
  store_address: schemas.address,
  role: z.string().optional(),
  is_manager: z.boolean().optional(),
  job_title: z.string().optional(),
});
export type SellerIdTokenClaims = z.infer<typeof sellerIdTokenClaims>;

/** The session of `claims`, its token, and its expiry (`expires_in` from `now`; the ID token's `exp` without one). */
export function sessionFromClaims(
  claims: SellerIdTokenClaims,
  accessToken: string,
  expiresAt: Date,
): SellerSession {
  return {
    sellerId: claims.sub,
    sellerName: claims.name,
    taxId: claims.cpf,
    storeId: claims.store_id,
    storeName: claims.store_name,
    storeCnpj: claims.store_cnpj,
    storeAddress: claims.store_address,
    accessToken,
    isManager: claims.is_manager ?? claims.role === 'MANAGER',
    ...(claims.role === undefined ? {} : { role: claims.role }),
    ...(claims.job_title === undefined ? {} : { jobTitle: claims.job_title }),
    expiresAt,
  };
}
