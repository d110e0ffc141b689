// Which use case serves each endpoint of the Sales Authorization API: the dispatch table of the registry.
import type { endpoints } from '@fin/core';
import type { z } from 'zod';
import type { RegisteredClient } from '../auth/client-registry.js';
import type { OperationId } from '../http/routes.js';
import type { AuthorizeFindings, AuthorizeLookup } from '../ports/store.js';
import { authorizeSale } from '../use-cases/authorize.js';
import { cancelSale } from '../use-cases/cancel.js';
import { confirmSale } from '../use-cases/confirm.js';
import type { Seal, UseCaseResult } from '../use-cases/result.js';
import type { ServiceDeps } from './deps.js';

type Api = endpoints.SalesAuthorizationEndpoints;
/** Every endpoint but the token's, which the token endpoint serves before any bearer exists. */
export type UseCaseId = Exclude<OperationId, 'issueToken'>;

/** One call, its body already parsed by the endpoint's schema. */
export interface UseCaseCall<Body> {
  client: RegisteredClient;
  body: Body;
  params: Readonly<Record<string, string>>;
  correlationId: string | undefined;
  now: Date;
  /** The idempotency key's answer for a result, for the write that makes it true (W-11). */
  seal?: Seal;
  /** The entry's `lookup`, answered by the store with the idempotency claim. */
  found?: AuthorizeFindings;
}

interface UseCaseEntry<Id extends UseCaseId> {
  /** The `route` field of the request's log line. */
  route: string;
  /** Fields of the log line read from the body (masked by `redact`). */
  trace?: (body: z.output<Api[Id]['body']['schema']>) => { clientTaxId?: string; imei?: string };
  /** Reads the use case makes first, which a store may answer with the idempotency claim. */
  lookup?: (
    client: RegisteredClient,
    body: z.output<Api[Id]['body']['schema']>,
    now: Date,
  ) => AuthorizeLookup;
  run(deps: ServiceDeps, call: UseCaseCall<z.output<Api[Id]['body']['schema']>>): Promise<UseCaseResult>;
}

const useCases: { [Id in UseCaseId]: UseCaseEntry<Id> } = {
  authorizeSale: {
    route: 'authorize',
    trace: (cart) => ({ clientTaxId: cart.clientTaxId, imei: cart.imei }),
    lookup: (client, cart, now) => ({
      clientId: client.clientId,
      clientTaxId: cart.clientTaxId,
      storeId: cart.storeId,
      imei: cart.imei,
      now,
    }),
    run: (deps, { client, body, correlationId, now, seal, found }) =>
      authorizeSale(deps, { client, cart: body, correlationId, now, seal, found }),
  },
  confirmSale: {
    route: 'confirm',
    run: (deps, { client, body, params, now, seal }) =>
      confirmSale(deps, {
        clientId: client.clientId,
        authorizationId: params.id!,
        confirmation: body,
        now,
        seal,
      }),
  },
  cancelSale: {
    route: 'cancel',
    run: (deps, { client, body, params, now, seal }) =>
      cancelSale(deps, { clientId: client.clientId, authorizationId: params.id!, notice: body, now, seal }),
  },
};

/** A use case whose body its endpoint's schema (the registry's) has already parsed into the right shape. */
export type ParsedUseCase = Omit<UseCaseEntry<UseCaseId>, 'trace' | 'lookup' | 'run'> & {
  trace?: (body: unknown) => { clientTaxId?: string; imei?: string };
  lookup?: (client: RegisteredClient, body: unknown, now: Date) => AuthorizeLookup;
  run(deps: ServiceDeps, call: UseCaseCall<unknown>): Promise<UseCaseResult>;
};

export const useCaseOf = (id: UseCaseId): ParsedUseCase => useCases[id] as ParsedUseCase;
