// A self-contained sandbox of the Sales Authorization API, following the magic values (used until server-kit).
import { money, schemas } from '@fin/core';
import { v4 as uuidv4 } from 'uuid';
import { magicValues } from './magic-values.js';
import { fail, ok, tokenFail, tokenOk } from './respond.js';

export interface SandboxConfig {
  clientId: string;
  clientSecret: string;
  now: () => Date;
}

interface Authorization {
  id: string;
  imei: string;
  status: 'AUTHORIZED' | 'CONFIRMED' | 'CANCELLED';
  expiresAt: Date;
}

const VALIDITY_MS = 15 * 60_000;
const SALE_PATH = /^\/v1\/sales\/([^/]+)\/(confirm|cancel)$/;

export function createSandbox(config: SandboxConfig) {
  const tokens = new Set<string>();
  const authorizations = new Map<string, Authorization>();
  const replies = new Map<string, { body: string; response: Response }>();
  const stores = new Set<string>([magicValues.storeId, ...Object.values(magicValues.faultStoreIds)]);

  const token = async (request: Request) => {
    const form = new URLSearchParams(await request.text());
    if (form.get('grant_type') !== 'client_credentials')
      return tokenFail(request, 'invalid_request', 'bad_request');
    if (form.get('client_id') !== config.clientId || form.get('client_secret') !== config.clientSecret) {
      return tokenFail(request, 'invalid_client', 'invalid_client');
    }
    const accessToken = `sandbox-${uuidv4()}`;
    tokens.add(accessToken);
    return tokenOk(request, accessToken);
  };

  const isActive = (a: Authorization, now: Date) =>
    a.status === 'CONFIRMED' || (a.status === 'AUTHORIZED' && now < a.expiresAt);

  const authorize = (request: Request, now: Date, body: unknown) => {
    const parsed = schemas.authorizeRequest.safeParse(body);
    if (!parsed.success) {
      const currency = parsed.error.issues.some((issue) => issue.message === 'unsupported_currency');
      const details = parsed.error.issues.map((issue) => ({
        field: issue.path.join('.'),
        issue: issue.message,
      }));
      return fail(request, now, currency ? 'unsupported_currency' : 'validation_error', { details });
    }
    const cart = parsed.data;
    if (!stores.has(cart.storeId)) return fail(request, now, 'store_not_found');
    const sum = money.add(
      money.sum(cart.items.map((item) => item.totalPrice)),
      money.sum(cart.services.map((service) => service.price)),
    );
    if (!money.equals(sum, cart.totals.grandTotal)) return fail(request, now, 'total_mismatch');
    const financed = [...authorizations.values()].some((a) => a.imei === cart.imei && isActive(a, now));
    if (cart.imei === magicValues.imei.alreadyFinanced || financed)
      return fail(request, now, 'imei_already_financed');
    if (cart.clientTaxId === magicValues.cpf.declined) {
      return ok(request, now, {
        authorized: false,
        declineReason: magicValues.declineReason,
        message: 'Crédito não aprovado.',
      });
    }
    if (
      cart.clientTaxId === magicValues.cpf.fixedApproval &&
      cart.totals.grandTotal.amount !== magicValues.fixedApprovalAmount
    ) {
      return fail(request, now, 'total_mismatch');
    }
    const authorization: Authorization = {
      id: `auth-${uuidv4()}`,
      imei: cart.imei,
      status: 'AUTHORIZED',
      expiresAt: new Date(now.getTime() + VALIDITY_MS),
    };
    authorizations.set(authorization.id, authorization);
    return ok(request, now, {
      authorized: true,
      authorizationId: authorization.id,
      status: authorization.status,
      expiresAt: authorization.expiresAt.toISOString(),
      message: 'Venda autorizada.',
    });
  };

  const confirm = (request: Request, now: Date, authorization: Authorization, body: unknown) => {
    const parsed = schemas.confirmRequest.safeParse(body);
    if (!parsed.success) return fail(request, now, 'validation_error');
    if (authorization.status !== 'AUTHORIZED') return fail(request, now, 'invalid_state_transition');
    if (new Date(parsed.data.invoicedAt) >= authorization.expiresAt)
      return fail(request, now, 'authorization_expired');
    authorization.status = 'CONFIRMED';
    return ok(request, now, {
      authorizationId: authorization.id,
      status: 'CONFIRMED',
      contractId: `contract-${authorization.id}`,
    });
  };

  const cancel = (request: Request, now: Date, authorization: Authorization, body: unknown) => {
    const parsed = schemas.cancelRequest.safeParse(body);
    if (!parsed.success) return fail(request, now, 'validation_error');
    authorization.status = 'CANCELLED';
    return ok(request, now, {
      authorizationId: authorization.id,
      status: 'CANCELLED',
      reason: parsed.data.reason,
      verification: 'PENDING',
      financingCancelled: false,
    });
  };

  async function write(request: Request, now: Date, path: string): Promise<Response> {
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(request, now, 'bad_request');
    }
    if (path === '/v1/sales/authorize') return authorize(request, now, body);
    const [, id = '', action] = SALE_PATH.exec(path) ?? [];
    const authorization = authorizations.get(decodeURIComponent(id));
    if (!action) return fail(request, now, 'not_found');
    if (!authorization) return fail(request, now, 'authorization_not_found');
    return action === 'confirm'
      ? confirm(request, now, authorization, body)
      : cancel(request, now, authorization, body);
  }

  return {
    async fetch(request: Request): Promise<Response> {
      const now = config.now();
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path === '/v1/oauth/token') return token(request);
      const bearer = request.headers.get('authorization');
      if (!bearer) return fail(request, now, 'missing_token');
      if (!tokens.has(bearer.replace(/^Bearer\s+/i, ''))) return fail(request, now, 'invalid_token');
      if (request.method !== 'POST') return fail(request, now, 'method_not_allowed');
      const key = request.headers.get('idempotency-key');
      if (!key) return fail(request, now, 'missing_idempotency_key');
      const text = await request.clone().text();
      const previous = replies.get(key);
      if (previous) {
        return previous.body === text
          ? previous.response.clone()
          : fail(request, now, 'idempotency_key_conflict');
      }
      const response = await write(request, now, path);
      if (response.status === 200) replies.set(key, { body: text, response: response.clone() });
      return response;
    },
  };
}
