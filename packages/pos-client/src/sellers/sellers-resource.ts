// pos.sellers.login: both request shapes, one normalized result; the password is sent once and kept nowhere.
import { endpoints, FinInputError } from '@fin/core';
import { type ApiPromise, apiPromise, type WithResponse, withResponse } from '@fin/core/transport';
import type { z } from 'zod';
import { type CallOptions, type ClientContext, callOptions } from '../client-context.js';
import { exactlyOne, type Only } from '../exclusive.js';
import { type SellerLoginResult, toSellerLoginResult } from './seller-login-result.js';

const session = endpoints.partnerPos.createSellerSession;

type ByCpf = z.infer<(typeof session.body.schema.options)[0]>;
type ByUsername = z.infer<(typeof session.body.schema.options)[1]>;

/** Shape (a) `{ cpf, password }` or shape (b) `{ username, password }`, never both. */
export type SellerCredentials = Only<ByCpf, ByUsername> | Only<ByUsername, ByCpf>;

export interface SellersResource {
  /**
   * Opens a seller session. Wrong credentials are `{ authorized: false, status: 'INVALID_PASSWORD' |
   * 'USER_NOT_FOUND' }`, not an error; a 401 means the system token is bad (the transport renews it and
   * replays once), never the seller's password. The password goes in the body of this one request and is
   * neither logged, kept, nor put in any error.
   */
  login(credentials: SellerCredentials, options?: CallOptions): ApiPromise<WithResponse<SellerLoginResult>>;
}

export const sellersResource = (context: ClientContext): SellersResource => ({
  login: (credentials, options = {}) => apiPromise(login(context, credentials, options)),
});

async function login(
  context: ClientContext,
  credentials: SellerCredentials,
  options: CallOptions,
): Promise<WithResponse<SellerLoginResult>> {
  const key = exactlyOne(credentials, ['cpf', 'username']);
  if (!key || typeof credentials.password !== 'string') {
    throw new FinInputError({
      code: 'validation_error',
      details: [{ field: 'cpf|username', issue: 'exactly one of cpf or username, and a password' }],
    });
  }
  const body =
    key === 'cpf'
      ? { cpf: credentials.cpf, password: credentials.password }
      : { username: credentials.username, password: credentials.password };
  const { data, meta } = await context.http.request({
    ...endpoints.endpointRequest(session, { body }),
    ...callOptions(options),
  });
  const result = toSellerLoginResult(data, meta.message);
  return withResponse(result, meta);
}
