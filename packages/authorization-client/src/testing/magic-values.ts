// The documented magic values of the sandbox handlers: which input triggers which outcome.
import { sandboxTaxIds } from '@fin/server-kit';
import { sandboxNfeAccessKey } from './nfe-access-key.js';

const declined = '00000000272' satisfies keyof typeof sandboxTaxIds;

/**
 * Inputs that make the sandbox answer each outcome a POS must handle. Any other valid CPF and IMEI is
 * approved for exactly the cart's `grandTotal`. The credit outcomes are those of server-kit's
 * `sandboxTaxIds` (more refusal reasons there); this table adds the ones the sandbox sets up itself.
 */
export const magicValues = {
  /** Credentials the sandbox accepts (a `test_` client id: sandbox). */
  credentials: { clientId: 'test_pos_sandbox', clientSecret: 'test_secret_sandbox' },
  /** A store of the sandbox client: normal behaviour. */
  storeId: 'store-001',
  /** A seller of `storeId`, as a seller session gives it: `buildCart({ seller: magicValues.seller, ... })`. */
  seller: { id: 'seller-001', taxId: '98765432100', name: 'Vendedora Sandbox' },
  /** A carrier plan of `storeId`. */
  planId: 'plan-controle',
  /** A valid NF-e access key (44 digits, check digit correct) for `confirm`. */
  nfeAccessKey: '35240111222333000181550010000001231123456780',
  /** A valid NF-e access key per invoice number (and month of issue), when a test confirms several sales. */
  nfeAccessKeyFor: sandboxNfeAccessKey,
  cpf: {
    /** Approved for the cart's `grandTotal` (as is any valid CPF not in `sandboxTaxIds`). */
    approved: '00000000191',
    /** Credit refused: HTTP 200, `authorized: false`, `declineReason` below. */
    declined,
    /**
     * Holds a proposal approved earlier for exactly `fixedApprovalAmount` at `storeId`: until a cart of
     * that amount uses it, any other `grandTotal` is `total_mismatch`.
     */
    fixedApproval: '39053344705',
  },
  /** Amount of the `cpf.fixedApproval` proposal, in cents (R$ 1.000,00). */
  fixedApprovalAmount: 100_000,
  /** Reason given for the `cpf.declined` refusal. */
  declineReason: sandboxTaxIds[declined].declineReason,
  imei: {
    /** A device with no financing: approved. */
    approved: '490154203237518',
    /** A device already linked to an active financing (of another store): `imei_already_financed`. */
    alreadyFinanced: '353918051234561',
  },
  /** Stores whose authorize calls meet a transient failure on the first attempt of each Idempotency-Key. */
  faultStoreIds: {
    /** 429 `rate_limit_exceeded` with `Retry-After: 1`, then the normal answer. */
    rateLimited: 'store-429',
    /** 503 `service_unavailable` with `Retry-After: 1` (the database unavailable), then the normal answer. */
    unavailableOnce: 'store-503',
    /**
     * The first attempt is processed (the sale is authorized) but answered 503 `service_unavailable` with
     * `Retry-After: 1`, as when the database connection drops after the commit; the retry with the same
     * Idempotency-Key gets that authorization (replayed). A retry with a NEW key would meet
     * `imei_already_financed`: the reason the key must be kept across retries.
     */
    answerLost: 'store-lost',
  },
  /** `Retry-After` seconds of the `faultStoreIds.rateLimited` answer. */
  retryAfterSeconds: 1,
} as const;

export type MagicValues = typeof magicValues;
