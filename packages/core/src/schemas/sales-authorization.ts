// Sales Authorization API (spec sections 2 to 4): the cart, authorize, confirm and cancel.
import * as z from 'zod';
import { productType } from './partner-pos.js';
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

export const cartItem = z
  .object({
    sku: shortId,
    productType,
    name: text.min(1).max(200),
    /** A whole number of units; `totalPrice` is `unitPrice` x `quantity` to the cent. */
    quantity: z.number().int().min(1).max(999),
    unitPrice: saleAmount,
    totalPrice: saleAmount,
  })
  .meta({ id: 'CartItem' });
export type CartItem = z.infer<typeof cartItem>;

export const cartService = z
  .object({
    serviceId: shortId,
    type: text.min(1).max(64),
    name: text.min(1).max(200),
    price: saleAmount,
  })
  .meta({ id: 'CartService' });
export type CartService = z.infer<typeof cartService>;

export const cartTotals = z
  .object({ productsTotal: saleAmount, servicesTotal: saleAmount, grandTotal: financedAmount })
  .meta({ id: 'CartTotals' });
export type CartTotals = z.infer<typeof cartTotals>;

/**
 * Body of `POST /v1/sales/authorize`. Requirement flags are not shown by the spec: every field is
 * required but `services`, which may be absent or empty (docs/spec-decisions.md).
 */
export const authorizeRequest = z
  .object({
    clientName: text.min(1).max(200),
    clientTaxId: cpf,
    clientPhoneNumber: text.min(8).max(20),
    sellerId: text.min(1).max(64),
    sellerTaxId: cpf,
    sellerName: text.min(1).max(200),
    storeId: storeContext,
    planId: shortId,
    imei,
    items: z.array(cartItem).min(1).max(50),
    services: z.array(cartService).max(50).default([]),
    totals: cartTotals,
  })
  .meta({ id: 'AuthorizeRequest' });
export type AuthorizeRequest = z.input<typeof authorizeRequest>;

export const authorizationStatus = z.enum(['AUTHORIZED', 'CONFIRMED', 'CANCELLED', 'EXPIRED']);
export type AuthorizationStatus = z.infer<typeof authorizationStatus>;

/** Why an exchange could not reuse its proposal: an optional field, allowed by section 9. */
export const proposalReuse = z
  .object({ reused: z.boolean(), failure: z.string().optional(), message: z.string().optional() })
  .meta({ id: 'ProposalReuse' });
export type ProposalReuse = z.infer<typeof proposalReuse>;

export const authorizationApproved = z
  .object({
    authorized: z.literal(true),
    authorizationId: z.string().min(1),
    status: authorizationStatus,
    expiresAt: utcDateTime,
    message: z.string(),
    proposalReuse: proposalReuse.optional(),
  })
  .meta({ id: 'AuthorizationApproved' });

/** A credit refusal: HTTP 200, never an error. */
export const authorizationDeclined = z
  .object({
    authorized: z.literal(false),
    declineReason: z.string(),
    message: z.string(),
    authorizationId: z.string().optional(),
    status: z.string().optional(),
    proposalReuse: proposalReuse.optional(),
  })
  .meta({ id: 'AuthorizationDeclined' });

export const authorizeResult = z
  .discriminatedUnion('authorized', [authorizationApproved, authorizationDeclined])
  .meta({ id: 'AuthorizeResult' });
export type AuthorizeResult = z.infer<typeof authorizeResult>;

export const confirmRequest = z
  .object({
    saleNumber: text.min(1).max(64),
    invoiceNumber: text.min(1).max(64),
    nfeAccessKey,
    invoicedAt: utcDateTime,
  })
  .meta({ id: 'ConfirmRequest' });
export type ConfirmRequest = z.infer<typeof confirmRequest>;

export const installment = z
  .object({ number: z.number().int().min(1), amount: saleAmount, dueDate: z.iso.date() })
  .meta({ id: 'Installment' });
export type Installment = z.infer<typeof installment>;

export const confirmResult = z
  .object({
    authorizationId: z.string(),
    status: z.literal('CONFIRMED'),
    contractId: z.string(),
    principal: financedAmount.optional(),
    // Always sent by server-kit; a server showing only `contractId` (spec section 5) decodes to [] (FIT-5).
    installments: z.array(installment).default([]),
  })
  .meta({ id: 'ConfirmResult' });
export type ConfirmResult = z.infer<typeof confirmResult>;

/** Reasons we name; any upper-case reason is accepted, `EXCHANGE` marks an exchange. */
export const cancelReason = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'reason is an upper-case code');
export type CancelReason = 'EXCHANGE' | 'CUSTOMER_REQUEST' | 'INVOICE_ERROR' | 'OTHER' | (string & {});

export const cancelRequest = z
  .object({
    reason: cancelReason,
    description: text.max(500).optional(),
    cancelledAt: utcDateTime.optional(),
  })
  .meta({ id: 'CancelRequest' });
export type CancelRequest = z.infer<typeof cancelRequest>;

/** the notice is recorded at once; the financing is cancelled only once the sale search agrees. */
export const cancellationVerification = z.enum(['VERIFIED', 'PENDING', 'CONTRADICTED']);
export type CancellationVerification = z.infer<typeof cancellationVerification>;

export const cancelResult = z
  .object({
    authorizationId: z.string(),
    status: authorizationStatus,
    reason: z.string(),
    verification: cancellationVerification,
    financingCancelled: z.boolean(),
  })
  .meta({ id: 'CancelResult' });
export type CancelResult = z.infer<typeof cancelResult>;

/** The cancellation notice of an authorization, as `GET /v1/sales/{id}` shows it. */
export const cancellationNotice = z
  .object({
    reason: z.string(),
    /** When the financing service received the notice (`POST /v1/sales/{id}/cancel`). */
    noticedAt: utcDateTime,
    verification: cancellationVerification,
  })
  .meta({ id: 'CancellationNotice' });
export type CancellationNotice = z.infer<typeof cancellationNotice>;

/**
 * The current state of one authorization (`GET /v1/sales/{id}`): `status` as the cancel endpoint reports
 * it (a notified cancellation keeps the prior status until the sale search verifies it), `contractId`
 * once confirmed, `cancellation` once notified.
 */
export const authorizationState = z
  .object({
    authorizationId: z.string().min(1),
    status: authorizationStatus,
    expiresAt: utcDateTime,
    contractId: z.string().optional(),
    cancellation: cancellationNotice.optional(),
  })
  .meta({ id: 'AuthorizationState' });
export type AuthorizationState = z.infer<typeof authorizationState>;
