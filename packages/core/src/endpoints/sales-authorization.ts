// The Sales Authorization API (spec section 4): implemented by the financing service, called by the partner POS.
import * as z from 'zod';
import {
  type AuthorizationState,
  authorizationApproved,
  authorizationState,
  authorizeRequest,
  authorizeResult,
  cancelRequest,
  cancelResult,
  confirmRequest,
  confirmResult,
} from '../schemas/sales-authorization.js';
import { defineEndpoint, type NamedExample } from './endpoint.js';
import {
  authorizeExamples,
  authorizeResultExamples,
  cancelExamples,
  cancelResultExamples,
  confirmExamples,
  confirmResultExamples,
} from './examples.js';
import { tokenEndpoint } from './token.js';

/** `{id}` of a call on one authorization: it belongs to the client that created it, others get 404. */
const authorizationPath = z.object({
  id: authorizationApproved.shape.authorizationId.meta({
    description: 'The `authorizationId` of authorize.',
  }),
});

/** Every call but the token's: a write of the POS, idempotent, under `sales:authorize`. */
const sale = { method: 'POST', rate: 'write', scopes: ['sales:authorize'] } as const;
const tag = 'Sales authorization';

export const salesAuthorizationEndpoints = {
  issueToken: tokenEndpoint('Scope: `sales:authorize`.', ['sales:authorize']),
  authorizeSale: defineEndpoint({
    ...sale,
    path: '/v1/sales/authorize',
    body: { schema: authorizeRequest, mediaType: 'application/json', examples: authorizeExamples },
    response: {
      schema: authorizeResult,
      envelope: true,
      name: 'AuthorizeResponse',
      description: 'Authorized, or refused by credit (still HTTP 200).',
      examples: authorizeResultExamples,
    },
    errors: [
      'store_context_required',
      'store_not_found',
      'total_mismatch',
      'unsupported_currency',
      'imei_already_financed',
    ],
    docs: {
      summary: 'Authorize a financed sale',
      description:
        'The POS must not invoice before receiving `authorized: true` (the only hard contractual lock). The ' +
        'call is self-contained: no prior step, and the financing service does not query the POS meanwhile. ' +
        '`items[].totalPrice` plus `services[].price` must add up to `totals.grandTotal` exactly, and ' +
        '`grandTotal` must equal the approved amount: else `total_mismatch`, values are never adjusted (R-02). ' +
        'An IMEI has at most one active financing (R-10). A credit refusal is HTTP 200 with ' +
        '`authorized: false` and `declineReason`, never an error (R-07). The `authorizationId` is valid for 15 ' +
        'minutes, stated in `expiresAt` (R-06). An exchange (an earlier sale cancelled with `reason: EXCHANGE`) ' +
        'reuses its proposal within R-11; when reuse fails, a new credit analysis runs and ' +
        '`data.proposalReuse.failure` says why (one of `x-proposal-reuse-failures`).',
      tag,
      extensions: {
        'x-proposal-reuse-failures': [
          'proposal_not_found',
          'proposal_already_used',
          'proposal_reuse_window_expired',
          'proposal_reuse_amount_exceeded',
          'proposal_reuse_limit_reached',
        ],
      },
    },
  }),
  confirmSale: defineEndpoint({
    ...sale,
    path: '/v1/sales/{id}/confirm',
    pathParameters: authorizationPath,
    body: { schema: confirmRequest, mediaType: 'application/json', examples: confirmExamples },
    response: {
      schema: confirmResult,
      envelope: true,
      name: 'ConfirmResponse',
      description: 'The authorization is confirmed and the contract created.',
      examples: confirmResultExamples,
    },
    errors: ['authorization_not_found', 'authorization_expired', 'invalid_state_transition'],
    docs: {
      summary: 'Confirm the invoicing of an authorized sale',
      description:
        'Creates the credit contract and its installments and returns `contractId`. Recommended, not ' +
        'mandatory: without it the financing service polls the POS sale search until the sale is `ACTIVE`. An ' +
        '`invoicedAt` within the 15 minutes of the authorization is accepted even if the call arrives later, ' +
        'within a grace period (1 hour by default). `invoicedAt` before the authorization was issued (less a ' +
        'small clock skew, 2 minutes by default) or in the future is `validation_error`; after `expiresAt`, or a ' +
        'confirm after the grace, `authorization_expired`.',
      tag,
    },
  }),
  cancelSale: defineEndpoint({
    ...sale,
    path: '/v1/sales/{id}/cancel',
    pathParameters: authorizationPath,
    body: { schema: cancelRequest, mediaType: 'application/json', examples: cancelExamples },
    response: {
      schema: cancelResult,
      envelope: true,
      name: 'CancelResponse',
      description: 'The cancellation notice is recorded; `verification` says where R-08 stands.',
      examples: cancelResultExamples,
    },
    errors: ['authorization_not_found', 'invalid_state_transition'],
    docs: {
      summary: 'Notify the cancellation of a sale',
      description:
        'Cancellation always starts in the POS: cancel the order and the invoice, release the stock, then ' +
        'notify here (recommended). The notice is recorded at once; the financing is cancelled only after the ' +
        'POS sale search shows the sale `CANCELLED`, and the search prevails when they disagree (R-08). ' +
        '`reason: EXCHANGE` marks an exchange, whose proposal a new sale may reuse (R-09, R-11). A ' +
        '`cancelledAt` before the authorization was issued or in the future (beyond the clock skew) is ' +
        '`validation_error`.',
      tag,
    },
  }),
  retrieveSale: defineEndpoint({
    method: 'GET',
    path: '/v1/sales/{id}',
    rate: 'read',
    scopes: ['sales:authorize'],
    pathParameters: authorizationPath,
    response: {
      schema: authorizationState,
      envelope: true,
      name: 'RetrieveResponse',
      description: 'The current state of the authorization.',
      examples: {
        confirmedCancelPending: {
          summary: 'Confirmed; a cancellation notice waits for the sale search (R-08)',
          value: {
            authorizationId: 'AUT-7f3c2a9e',
            status: 'CONFIRMED',
            expiresAt: '2026-01-15T12:15:00.000Z',
            contractId: 'CTR-5b21d0c4',
            cancellation: {
              reason: 'EXCHANGE',
              noticedAt: '2026-01-15T14:02:11.000Z',
              verification: 'PENDING',
            },
          } satisfies AuthorizationState,
        },
        authorized: {
          summary: 'Authorized, not yet confirmed',
          value: {
            authorizationId: 'AUT-7f3c2a9e',
            status: 'AUTHORIZED',
            expiresAt: '2026-01-15T12:15:00.000Z',
          } satisfies AuthorizationState,
        },
      } satisfies Record<string, NamedExample>,
    },
    errors: ['authorization_not_found'],
    docs: {
      summary: 'Read the current state of an authorization',
      description:
        'What a POS restarting after a crash, or a webhook receiver, reads to learn where a sale stands. ' +
        '`status` is reported as by the cancel endpoint: `EXPIRED` once `expiresAt` passed unconfirmed, and a ' +
        'notified cancellation keeps the prior status until the POS sale search verifies it (R-08); ' +
        '`cancellation.verification` says where that stands (`PENDING`, `VERIFIED`, `CONTRADICTED`). ' +
        '`contractId` appears once the sale is confirmed. Only the client that created the authorization may ' +
        'read it: any other id is `authorization_not_found`. A read: no `Idempotency-Key`, the read rate class.',
      tag,
    },
  }),
};

export type SalesAuthorizationEndpoints = typeof salesAuthorizationEndpoints;
