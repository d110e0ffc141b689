// Which use case serves each endpoint of the Sales Authorization API: the dispatch table of the registry.
import type { endpoints } from '@fin/core';
import type { z } from 'zod';
import type { RegisteredClient } from '../deps/clients.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { OperationId } from '../http/routes.js';
import type { AuthorizeFindings, WriteClaim } from '../ports/store.js';
import { authorizeSale } from '../use-cases/authorize.js';
import { cancelSale } from '../use-cases/cancel.js';
import { confirmSale } from '../use-cases/confirm.js';
import type { UseCaseResult, Write } from '../use-cases/result.js';
import { retrieveSale } from '../use-cases/retrieve.js';
import type { Trace } from './request-log.js';

type Api = endpoints.SalesAuthorizationEndpoints;
/** Every endpoint but the token's, which the token endpoint serves before any bearer exists. */
export type UseCaseId = Exclude<OperationId, 'issueToken'>;

/** The parsed body of an endpoint (`undefined` for an entry without one, a read). */
type BodyOf<Id extends UseCaseId> = Api[Id] extends { body: { schema: infer S extends z.ZodType } }
  ? z.output<S>
  : undefined;

/** A write's key, owned by its call (what its claim read: an authorize's first reads); none for a read. */
type WriteOf<Id extends UseCaseId> = Api[Id] extends { rate: 'write' }
  ? Write<Id extends 'authorizeSale' ? AuthorizeFindings : undefined>
  : undefined;

/** One call, its body already parsed by the endpoint's schema. */
export interface UseCaseCall<Body, W> {
  client: RegisteredClient;
  body: Body;
  params: Readonly<Record<string, string>>;
  correlationId: string | undefined;
  now: Date;
  /** A write's key, owned by this call: what its claim read, and the commit of its answer with its effect. */
  write: W;
}

interface UseCaseEntry<Id extends UseCaseId> {
  /** The `route` field of the request's log line. */
  route: string;
  /** Fields of the log line read from the body (masked by `redact`). */
  trace?: (body: BodyOf<Id>) => Pick<Trace, 'clientTaxId' | 'imei'>;
  /** The reads a write declares: the store makes them with its claim, and they reach `run` as `write.found`. */
  reads?: (body: BodyOf<Id>) => NonNullable<WriteClaim['reads']>;
  run(deps: ServiceDeps, call: UseCaseCall<BodyOf<Id>, WriteOf<Id>>): Promise<UseCaseResult>;
}

const useCases: { [Id in UseCaseId]: UseCaseEntry<Id> } = {
  authorizeSale: {
    route: 'authorize',
    trace: (cart) => ({ clientTaxId: cart.clientTaxId, imei: cart.imei }),
    reads: (cart) => ({ clientTaxId: cart.clientTaxId, storeId: cart.storeId, imei: cart.imei }),
    run: (deps, { client, body, correlationId, now, write }) =>
      authorizeSale(deps, { client, cart: body, correlationId, now, write }),
  },
  confirmSale: {
    route: 'confirm',
    run: (deps, { client, body, params, now, write }) =>
      confirmSale(deps, {
        clientId: client.clientId,
        authorizationId: params.id!,
        confirmation: body,
        now,
        write,
      }),
  },
  cancelSale: {
    route: 'cancel',
    run: (deps, { client, body, params, now, write }) =>
      cancelSale(deps, { clientId: client.clientId, authorizationId: params.id!, notice: body, now, write }),
  },
  retrieveSale: {
    route: 'retrieve',
    run: (deps, { client, params, now }) =>
      retrieveSale(deps, { clientId: client.clientId, authorizationId: params.id!, now }),
  },
};

export const useCaseIds = Object.keys(useCases) as UseCaseId[];

/** A use case whose body its endpoint's schema (the registry's) has already parsed into the right shape. */
export type ParsedUseCase = Omit<UseCaseEntry<UseCaseId>, 'trace' | 'reads' | 'run'> & {
  trace?: (body: unknown) => Pick<Trace, 'clientTaxId' | 'imei'>;
  reads?: (body: unknown) => NonNullable<WriteClaim['reads']>;
  run(deps: ServiceDeps, call: UseCaseCall<unknown, Write<unknown> | undefined>): Promise<UseCaseResult>;
};

export const useCaseOf = (id: UseCaseId): ParsedUseCase => useCases[id] as ParsedUseCase;
