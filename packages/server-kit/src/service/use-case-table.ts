// Which use case serves each endpoint of the Sales Authorization API: the dispatch table of the registry.
import type { endpoints } from '@fin/core';
import type { z } from 'zod';
import type { RegisteredClient } from '../deps/clients.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { OperationId } from '../http/routes.js';
import type { ClaimOf } from '../idempotency/idempotency.js';
import type { AuthorizeFindings } from '../ports/store.js';
import { authorizeSale } from '../use-cases/authorize.js';
import { cancelSale } from '../use-cases/cancel.js';
import { confirmSale } from '../use-cases/confirm.js';
import type { Seal, UseCaseResult } from '../use-cases/result.js';
import { retrieveSale } from '../use-cases/retrieve.js';
import type { Trace } from './request-log.js';

type Api = endpoints.SalesAuthorizationEndpoints;
/** Every endpoint but the token's, which the token endpoint serves before any bearer exists. */
export type UseCaseId = Exclude<OperationId, 'issueToken'>;

/** The parsed body of an endpoint (`undefined` for an entry without one, a read). */
type BodyOf<Id extends UseCaseId> = Api[Id] extends { body: { schema: infer S extends z.ZodType } }
  ? z.output<S>
  : undefined;

/** One call, its body already parsed by the endpoint's schema. */
export interface UseCaseCall<Body> {
  client: RegisteredClient;
  body: Body;
  params: Readonly<Record<string, string>>;
  correlationId: string | undefined;
  now: Date;
  /** A write's idempotency key answer for a result, for the write that makes it true (W-11). */
  seal?: Seal;
  /** What the entry's `claimWithinLimit` read with the idempotency claim. */
  prefetched?: unknown;
}

interface UseCaseEntry<Id extends UseCaseId> {
  /** The `route` field of the request's log line. */
  route: string;
  /** Fields of the log line read from the body (masked by `redact`). */
  trace?: (body: BodyOf<Id>) => Pick<Trace, 'clientTaxId' | 'imei'>;
  /** A write's own claiming step, which a store may answer with reads the use case makes first. */
  claimWithinLimit?: ClaimOf;
  run(deps: ServiceDeps, call: UseCaseCall<BodyOf<Id>>): Promise<UseCaseResult>;
}

const useCases: { [Id in UseCaseId]: UseCaseEntry<Id> } = {
  authorizeSale: {
    route: 'authorize',
    trace: (cart) => ({ clientTaxId: cart.clientTaxId, imei: cart.imei }),
    // The first reads of an authorize, answered by the store with the idempotency claim when it can.
    claimWithinLimit: (store, client, body, now) => {
      const cart = body as BodyOf<'authorizeSale'>;
      if (!store.claimAuthorizeWithinLimit) return undefined;
      const lookup = {
        clientId: client.clientId,
        clientTaxId: cart.clientTaxId,
        storeId: cart.storeId,
        imei: cart.imei,
        now,
      };
      return async (input) => {
        const { found, ...claimed } = await store.claimAuthorizeWithinLimit!({ ...input, lookup });
        return found ? { ...claimed, prefetched: found } : claimed;
      };
    },
    run: (deps, { client, body, correlationId, now, seal, prefetched }) =>
      authorizeSale(deps, {
        client,
        cart: body,
        correlationId,
        now,
        seal,
        found: prefetched as AuthorizeFindings | undefined,
      }),
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
  retrieveSale: {
    route: 'retrieve',
    run: (deps, { client, params, now }) =>
      retrieveSale(deps, { clientId: client.clientId, authorizationId: params.id!, now }),
  },
};

export const useCaseIds = Object.keys(useCases) as UseCaseId[];

/** A use case whose body its endpoint's schema (the registry's) has already parsed into the right shape. */
export type ParsedUseCase = Omit<UseCaseEntry<UseCaseId>, 'trace' | 'run'> & {
  trace?: (body: unknown) => Pick<Trace, 'clientTaxId' | 'imei'>;
  run(deps: ServiceDeps, call: UseCaseCall<unknown>): Promise<UseCaseResult>;
};

export const useCaseOf = (id: UseCaseId): ParsedUseCase => useCases[id] as ParsedUseCase;
