// One normalized login result for both response shapes: status-wrapped SellerAuthResult (a) and flat SellerSession (b).
import type {
  SellerAuthStatus,
  SellerSessionFlat,
  SellerSessionResponse,
  SellerSessionWrapped,
} from '@fin/core/schemas';

/**
 * The seller's session and store context, the same whichever shape the partner answers with: `taxId`
 * (the wrapped shape's `cpf`), `isManager` (the flat shape's `role === 'MANAGER'`), `expiresAt` a Date.
 * `storeId` is what every store-scoped call needs: `pos.store(session.storeId)`.
 */
export type SellerSession = Omit<SellerSessionFlat, 'expiresAt' | 'role'> & {
  isManager: boolean;
  /** Sent by flat-shape partners: `SELLER`, `SUPERVISOR`, `MANAGER` or another value. */
  role?: string;
  /** Sent by status-wrapped partners; descriptive only, no effect on permissions. */
  jobTitle?: string;
  expiresAt: Date;
};

/** A failed login is a value, not an error; the two failure statuses should be shown with the same text. */
export type SellerLoginResult =
  | { authorized: true; status: 'AUTHORIZED'; message: string; session: SellerSession }
  | { authorized: false; status: Exclude<SellerAuthStatus, 'AUTHORIZED'>; message: string; session: null };

const fromWrapped = (session: SellerSessionWrapped): SellerSession => {
  const { cpf, isManager, jobTitle, expiresAt, ...common } = session;
  return {
    ...common,
    taxId: cpf,
    isManager: isManager ?? false,
    ...(jobTitle === undefined ? {} : { jobTitle }),
    expiresAt: new Date(expiresAt),
  };
};

const fromFlat = (session: SellerSessionFlat): SellerSession => {
  const { role, expiresAt, ...common } = session;
  return {
    ...common,
    isManager: role === 'MANAGER',
    ...(role === undefined ? {} : { role }),
    expiresAt: new Date(expiresAt),
  };
};

/**
 * Normalizes `data` of `POST /v1/sellers/session`. `message` is the envelope's, used when the flat
 * shape carries none. A wrapped answer whose `authorized`, `status` and `session` disagree never gets
 * here: the schema (`schemas.sellerAuthResult`) refuses it as a FinResponseValidationError.
 */
export function toSellerLoginResult(data: SellerSessionResponse, message: string): SellerLoginResult {
  if (!('authorized' in data)) {
    return { authorized: true, status: 'AUTHORIZED', message, session: fromFlat(data) };
  }
  if (data.authorized) {
    return {
      authorized: true,
      status: 'AUTHORIZED',
      message: data.message,
      session: fromWrapped(data.session),
    };
  }
  return { authorized: false, status: data.status, message: data.message, session: null };
}
