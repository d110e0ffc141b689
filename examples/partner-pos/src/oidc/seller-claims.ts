// The ID token and userinfo claims of one seller at one store (DESIGN 25): what the partner's provider asserts.
import type { SimulatedPos, SimulatedSeller } from '@fin/pos-client/testing';

/** A store as the simulated partner lists it. */
export type StoreRecord = SimulatedPos['data']['stores'][number];

/** The claims of DESIGN 25 but the protocol ones (`acr`, `amr`, `auth_time`), which the provider adds itself. */
export type SellerClaims = {
  sub: string;
  name: string;
  cpf: string;
  store_id: string;
  store_name: string;
  store_cnpj: string;
  store_address: StoreRecord['address'];
  role: SimulatedSeller['role'];
  is_manager: boolean;
  job_title: string;
};

/** Every claim name the provider serves, on the `openid` scope (docs/spec-decisions.md, seller login). */
export const SELLER_CLAIM_NAMES = [
  'sub',
  'name',
  'cpf',
  'store_id',
  'store_name',
  'store_cnpj',
  'store_address',
  'role',
  'is_manager',
  'job_title',
] as const satisfies readonly (keyof SellerClaims)[];

export const sellerClaims = (seller: SimulatedSeller, store: StoreRecord): SellerClaims => ({
  sub: seller.sellerId,
  name: seller.name,
  cpf: seller.cpf,
  store_id: store.storeId,
  store_name: store.name,
  store_cnpj: store.cnpj,
  store_address: {
    street: store.address.street,
    city: store.address.city,
    state: store.address.state,
    zipCode: store.address.zipCode,
  },
  role: seller.role,
  is_manager: seller.isManager,
  job_title: seller.jobTitle,
});
