// POST /v1/sellers/session on the simulated partner: both request shapes, answered in the configured response shape.
import { endpoints } from '@fin/core';
import type { SimulatedSeller } from '../data/dataset.js';
import { ok } from '../respond.js';
import { type Exchange, jsonBody, validate } from './exchange.js';

/** The spec recommends one generic text for both failures, so as not to reveal whether the CPF exists. */
const FAILED_LOGIN = 'CPF, usuário ou senha inválidos.';

function sessionOf(exchange: Exchange, seller: SimulatedSeller) {
  const { state, context } = exchange;
  const store = state.dataset.stores.find((candidate) => candidate.storeId === seller.storeId)!;
  const common = {
    sellerId: seller.sellerId,
    sellerName: seller.name,
    storeId: store.storeId,
    storeName: store.name,
    storeCnpj: store.cnpj,
    storeAddress: store.address,
    accessToken: `simsess_${crypto.randomUUID().replaceAll('-', '')}`,
    expiresAt: new Date(context.now.getTime() + state.sessionTtlSeconds * 1000).toISOString(),
  };
  return state.loginShape === 'flat'
    ? { ...common, taxId: seller.cpf, role: seller.role }
    : { ...common, cpf: seller.cpf, isManager: seller.isManager, jobTitle: seller.jobTitle };
}

/**
 * A failed login is HTTP 200 with `authorized: false` in either shape: the spec shows no other failure
 * answer, and shape (b) only describes success (docs/spec-decisions.md).
 */
export async function sellerSession(exchange: Exchange) {
  const body = await jsonBody(exchange);
  if ('response' in body) return body.response;
  const login = validate(exchange, endpoints.partnerPos.createSellerSession.body.schema, body.value);
  if ('response' in login) return login.response;
  const credentials = login.value;
  const seller = exchange.state.dataset.sellers.find((candidate) =>
    'cpf' in credentials ? candidate.cpf === credentials.cpf : candidate.username === credentials.username,
  );
  if (!seller || seller.password !== credentials.password) {
    const status = seller ? 'INVALID_PASSWORD' : 'USER_NOT_FOUND';
    return ok(exchange.context, { authorized: false, status, message: FAILED_LOGIN, session: null });
  }
  const session = sessionOf(exchange, seller);
  if (exchange.state.loginShape === 'flat') return ok(exchange.context, session);
  return ok(exchange.context, {
    authorized: true,
    status: 'AUTHORIZED',
    message: `Bem-vindo(a), ${seller.name}.`,
    session,
  });
}
