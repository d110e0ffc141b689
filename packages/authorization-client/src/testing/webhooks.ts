// Test kit for webhook receivers: sign a delivery as the financing service does, and build events of each type.
import type {
  AuthorizationExpiredEvent,
  CancellationContradictedEvent,
  CancellationVerifiedEvent,
  ContractCreatedEvent,
  WebhookEvent,
} from '@fin/core';
import { signWebhookDelivery } from '@fin/core/webhooks';

export interface SignWebhookInput {
  /** The secret (`whsec_...`) your receiver is set up with; several to sign as during a rotation. */
  secret: string | readonly string[];
  /** The event to deliver; serialised as the service does (minified JSON). A string is sent as it is. */
  event: WebhookEvent | Record<string, unknown> | string;
  /** `webhook-id`; default a new `msg_...`. */
  id?: string;
  /** `webhook-timestamp` in unix seconds (or a Date); default now. Move it to test your tolerance. */
  timestamp?: number | Date;
}

/**
 * Headers and body of one delivery, signed exactly as the financing service signs (Standard Webhooks v1):
 * post them to your receiver in tests. Async: signing runs on WebCrypto, as in production.
 */
export async function signWebhook(
  input: SignWebhookInput,
): Promise<{ headers: Record<string, string>; body: string }> {
  const body = typeof input.event === 'string' ? input.event : JSON.stringify(input.event);
  const id = input.id ?? `msg_${crypto.randomUUID().replaceAll('-', '')}`;
  const at = input.timestamp ?? new Date();
  const timestamp = at instanceof Date ? Math.floor(at.getTime() / 1000) : at;
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  return { headers: await signWebhookDelivery({ id, timestamp, body, secrets }), body };
}

type DataOf<E extends { data: unknown }> = Partial<E['data']>;

const now = () => new Date().toISOString();

/** The fields every event's data carries, with test values. */
const common = () => ({
  authorizationId: 'auth_test_1',
  storeId: 'store-1',
  sequence: 1,
  occurredAt: now(),
});

/** The envelope the service wraps every event in: a new event id, the type, now. */
const envelope = <T extends string, D>(type: T, data: D) => ({
  id: `evt_${crypto.randomUUID()}`,
  type,
  timestamp: now(),
  data,
});

/** Events of each type with test values; pass the fields your test cares about. No CPF, no IMEI, ever. */
export const webhookEvents = {
  contractCreated: (data: DataOf<ContractCreatedEvent> = {}): ContractCreatedEvent =>
    envelope('contract.created', {
      ...common(),
      status: 'CONFIRMED',
      contractId: 'ctr_test_1',
      principal: { amount: 189_990, currency: 'BRL' },
      source: 'CONFIRM',
      ...data,
    }),
  cancellationVerified: (data: DataOf<CancellationVerifiedEvent> = {}): CancellationVerifiedEvent =>
    envelope('cancellation.verified', {
      ...common(),
      status: 'CANCELLED',
      verification: 'VERIFIED',
      reason: 'CUSTOMER_REQUEST',
      ...data,
    }),
  cancellationContradicted: (
    data: DataOf<CancellationContradictedEvent> = {},
  ): CancellationContradictedEvent =>
    envelope('cancellation.contradicted', {
      ...common(),
      status: 'CONFIRMED',
      verification: 'CONTRADICTED',
      reason: 'CUSTOMER_REQUEST',
      ...data,
    }),
  authorizationExpired: (data: DataOf<AuthorizationExpiredEvent> = {}): AuthorizationExpiredEvent =>
    envelope('authorization.expired', { ...common(), status: 'EXPIRED', expiresAt: now(), ...data }),
};
