// Sales Authorization API (spec sections 2 to 4): the cart, authorize, confirm and cancel.
import * as z from 'zod';
import { documentedObject } from './documented-object.js';
import { openValues } from './open-values.js';
import { productType, type ServiceType } from './partner-pos.js';
import {
  cpf,
  financedAmount,
  imei,
  nfeAccessKey,
  saleAmount,
  shortId,
  storeContext,
  text,
  utcDateTime,
} from './primitives.js';

export const cartItem = documentedObject({
  /** The product's SKU in the partner catalog (at most 64 characters). */
  sku: shortId,
  /** `SMARTPHONE`, `ACCESSORY`, `CASE`, `SCREEN_PROTECTOR` or another value the POS uses. */
  productType,
  /** The product's name as sold. */
  name: text.min(1).max(200),
  /** A whole number of units; `totalPrice` is `unitPrice` x `quantity` to the cent. */
  quantity: z.number().int().min(1).max(999),
  /** Price of one unit, in integer cents. */
  unitPrice: saleAmount,
  /** `unitPrice` x `quantity`, in integer cents. */
  totalPrice: saleAmount,
}).meta({ id: 'CartItem' });
export type CartItem = z.infer<typeof cartItem>;

export const cartService = documentedObject({
  /** The service's id in the partner catalog (`GET /v1/services`). */
  serviceId: shortId,
  /** `EXTENDED_WARRANTY`, `INSURANCE`, `PROTECTION` or another value the POS uses. */
  type: openValues<ServiceType>(text.min(1).max(64)),
  /** The service's name as sold. */
  name: text.min(1).max(200),
  /** Price of the service, in integer cents. */
  price: saleAmount,
}).meta({ id: 'CartService' });
export type CartService = z.infer<typeof cartService>;

export const cartTotals = documentedObject({
  /** Sum of `items[].totalPrice`. */
  productsTotal: saleAmount,
  /** Sum of `services[].price`. */
  servicesTotal: saleAmount,
  /** `productsTotal` + `servicesTotal` exactly: the amount financed, compared with the approved proposal. */
  grandTotal: financedAmount,
}).meta({ id: 'CartTotals' });
export type CartTotals = z.infer<typeof cartTotals>;

/**
 * Body of `POST /v1/sales/authorize`. Requirement flags are not shown by the spec: every field is
 * required but `services`, which may be absent or empty (docs/spec-decisions.md).
 */
export const authorizeRequest = documentedObject({
  /** The buyer's full name. */
  clientName: text.min(1).max(200),
  /** The buyer's CPF, 11 digits, no mask. */
  clientTaxId: cpf,
  /** The buyer's phone number. */
  clientPhoneNumber: text.min(8).max(20),
  /** The seller's id, as the seller session returned it. */
  sellerId: text.min(1).max(64),
  /** The seller's CPF, 11 digits, no mask. */
  sellerTaxId: cpf,
  /** The seller's name. */
  sellerName: text.min(1).max(200),
  /** The store of the seller session; missing or blank is `store_context_required`. */
  storeId: storeContext,
  /** The carrier plan of the sale (`GET /v1/plans`). */
  planId: shortId,
  /** The financed device's IMEI, exactly 15 digits. */
  imei,
  /** The products sold, 1 to 50 lines. */
  items: z.array(cartItem).min(1).max(50),
  /** Warranties, insurance and protections sold with them; may be absent or empty. */
  services: z.array(cartService).max(50).default([]),
  /** The cart's totals in integer cents; `grandTotal` is what is financed. */
  totals: cartTotals,
}).meta({ id: 'AuthorizeRequest' });
export type AuthorizeRequest = z.input<typeof authorizeRequest>;

export const authorizationStatus = z.enum(['AUTHORIZED', 'CONFIRMED', 'CANCELLED', 'EXPIRED']);
export type AuthorizationStatus = z.infer<typeof authorizationStatus>;

/** Why an exchange could not reuse its proposal: an optional field, allowed by section 9. */
export const proposalReuse = documentedObject({
  /** Whether the exchange reused the original proposal. */
  reused: z.boolean(),
  /** The R-11 code of the condition that failed (`proposal_reuse_window_expired` ...). */
  failure: z.string().optional(),
  /** The failure in words. */
  message: z.string().optional(),
}).meta({ id: 'ProposalReuse' });
export type ProposalReuse = z.infer<typeof proposalReuse>;

export const authorizationApproved = documentedObject({
  /** `true`: the POS may invoice (the only hard lock of spec section 1.4). */
  authorized: z.literal(true),
  /** The authorization's id: the `{id}` of confirm, cancel and `GET /v1/sales/{id}`. */
  authorizationId: z.string().min(1),
  /** `AUTHORIZED` when issued. */
  status: authorizationStatus,
  /** When the authorization lapses, 15 minutes after issue: invoice before it. */
  expiresAt: utcDateTime,
  /** Text fit for display to the seller. */
  message: z.string(),
  /** On an exchange: whether its proposal was reused, and why not. */
  proposalReuse: proposalReuse.optional(),
}).meta({ id: 'AuthorizationApproved' });

/** A credit refusal: HTTP 200, never an error. */
export const authorizationDeclined = documentedObject({
  /** `false`: credit refused; the POS must not invoice. */
  authorized: z.literal(false),
  /** Why credit was refused (values not fixed by the spec). */
  declineReason: z.string(),
  /** Text fit for display to the seller. */
  message: z.string(),
  /** Sent by servers that record declines; absent from ours. */
  authorizationId: z.string().optional(),
  /** Sent by servers that record declines; absent from ours. */
  status: z.string().optional(),
  /** On an exchange: whether its proposal was reused, and why not. */
  proposalReuse: proposalReuse.optional(),
}).meta({ id: 'AuthorizationDeclined' });

export const authorizeResult = z
  .discriminatedUnion('authorized', [authorizationApproved, authorizationDeclined])
  .meta({ id: 'AuthorizeResult' });
export type AuthorizeResult = z.infer<typeof authorizeResult>;

export const confirmRequest = documentedObject({
  /** The POS's number of the invoiced sale. */
  saleNumber: text.min(1).max(64),
  /** The invoice (NF-e) number. */
  invoiceNumber: text.min(1).max(64),
  /** The 44-character NF-e access key, to find the invoice on the tax authority's portal. */
  nfeAccessKey,
  /** When the sale was invoiced: ISO 8601 in UTC, within the authorization's life. */
  invoicedAt: utcDateTime,
}).meta({ id: 'ConfirmRequest' });
export type ConfirmRequest = z.infer<typeof confirmRequest>;

export const installment = documentedObject({
  /** The installment's number, from 1. */
  number: z.number().int().min(1),
  /** Its amount in integer cents; the installments add up to `principal` to the cent. */
  amount: saleAmount,
  /** Its due date (`YYYY-MM-DD`), never before the confirmation. */
  dueDate: z.iso.date(),
}).meta({ id: 'Installment' });
export type Installment = z.infer<typeof installment>;

export const confirmResult = documentedObject({
  /** The confirmed authorization's id. */
  authorizationId: z.string(),
  /** `CONFIRMED`. */
  status: z.literal('CONFIRMED'),
  /** The credit contract created from the sale. */
  contractId: z.string(),
  /** The amount financed (the cart's `grandTotal`). */
  principal: financedAmount.optional(),
  // Always sent by server-kit; a server showing only `contractId` (spec section 5) decodes to [] (FIT-5).
  /** The contract's installments; empty when the server sends none. */
  installments: z.array(installment).default([]),
}).meta({ id: 'ConfirmResult' });
export type ConfirmResult = z.infer<typeof confirmResult>;

/** The reasons we name. */
type NamedCancelReason = 'EXCHANGE' | 'CUSTOMER_REQUEST' | 'INVOICE_ERROR' | 'OTHER';

/** Reasons we name; any upper-case reason is accepted, `EXCHANGE` marks an exchange. */
export const cancelReason = openValues<NamedCancelReason>(
  z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'reason is an upper-case code'),
);
export type CancelReason = z.infer<typeof cancelReason>;

/** A cancellation reason as a server reports it back (results, webhook events): any string, the named ones offered. */
export const reportedCancelReason = openValues<NamedCancelReason>(z.string());

export const cancelRequest = documentedObject({
  /** Why the sale was cancelled, an upper-case code; `EXCHANGE` marks an exchange. */
  reason: cancelReason,
  /** Free text about the cancellation, at most 500 characters. */
  description: text.max(500).optional(),
  /** When the sale was cancelled in the POS (ISO 8601, UTC). */
  cancelledAt: utcDateTime.optional(),
}).meta({ id: 'CancelRequest' });
export type CancelRequest = z.infer<typeof cancelRequest>;

/** the notice is recorded at once; the financing is cancelled only once the sale search agrees. */
export const cancellationVerification = z.enum(['VERIFIED', 'PENDING', 'CONTRADICTED']);
export type CancellationVerification = z.infer<typeof cancellationVerification>;

export const cancelResult = documentedObject({
  /** The authorization the notice is about. */
  authorizationId: z.string(),
  /** Its status now: `CANCELLED` once the sale search agrees, the prior status until then. */
  status: authorizationStatus,
  /** The reason as notified. */
  reason: reportedCancelReason,
  /** Whether the sale search agrees: `VERIFIED`, `PENDING` or `CONTRADICTED`. */
  verification: cancellationVerification,
  /** Whether the financing itself is cancelled (only once verified). */
  financingCancelled: z.boolean(),
}).meta({ id: 'CancelResult' });
export type CancelResult = z.infer<typeof cancelResult>;

/** The cancellation notice of an authorization, as `GET /v1/sales/{id}` shows it. */
export const cancellationNotice = documentedObject({
  /** The reason as notified; `EXCHANGE` marks an exchange. */
  reason: reportedCancelReason,
  /** When the financing service received the notice (`POST /v1/sales/{id}/cancel`). */
  noticedAt: utcDateTime,
  /** Whether the sale search agrees: `VERIFIED`, `PENDING` or `CONTRADICTED`. */
  verification: cancellationVerification,
}).meta({ id: 'CancellationNotice' });
export type CancellationNotice = z.infer<typeof cancellationNotice>;

/**
 * The current state of one authorization (`GET /v1/sales/{id}`): `status` as the cancel endpoint reports
 * it (a notified cancellation keeps the prior status until the sale search verifies it), `contractId`
 * once confirmed, `cancellation` once notified.
 */
export const authorizationState = documentedObject({
  /** The authorization's id. */
  authorizationId: z.string().min(1),
  /** `AUTHORIZED`, `CONFIRMED`, `CANCELLED` or `EXPIRED`. */
  status: authorizationStatus,
  /** When the authorization lapses (or lapsed), 15 minutes after issue. */
  expiresAt: utcDateTime,
  /** The credit contract, once confirmed. */
  contractId: z.string().optional(),
  /** The cancellation notice, once notified. */
  cancellation: cancellationNotice.optional(),
}).meta({ id: 'AuthorizationState' });
export type AuthorizationState = z.infer<typeof authorizationState>;
