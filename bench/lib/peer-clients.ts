// The authorize call as a user would make it: through our client, or the libraries they could pick instead (ky alone, openai-node, stripe-node, bare fetch).
import { randomUUID } from 'node:crypto';
import { AuthorizationClient } from '@fin/authorization-client';
import type { AuthorizeRequest } from '@fin/core';
import ky from 'ky';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { BENCH_CLIENT } from '../targets/bench-service.js';
import { cartStream } from './cart.js';

const PATH = '/v1/sales/authorize';
/** As our client's defaults: 10 s per attempt, two retries. */
const TIMEOUT_MS = 10_000;
const MAX_RETRIES = 2;

/** One authorize call: resolves when the server answered `authorized: true`. */
export type Call = () => Promise<void>;

interface Envelope {
  data?: { authorized?: boolean };
}

/** The headers our client sends beside the bearer: a fresh Idempotency-Key and request ids per call. */
const freshIds = () => ({
  'idempotency-key': randomUUID(),
  'x-request-id': randomUUID(),
  'x-correlation-id': randomUUID(),
});

function authorized(answer: Envelope, library: string): void {
  if (answer.data?.authorized !== true)
    throw new Error(`bench authorization through ${library} not authorized`);
}

/** Our client's authorize with `options` added, pacing off (the spec's 120 writes a minute would measure the pacer). */
export function viaClient(
  baseUrl: string,
  prefix: number,
  options: { fetch?: typeof fetch; maxRetries?: number } = {},
): Call {
  const client = new AuthorizationClient({ baseUrl, ...BENCH_CLIENT, rateLimit: false, ...options });
  const carts = cartStream(prefix);
  return async () => {
    if (!(await client.authorize(carts())).authorized) throw new Error('bench authorization declined');
  };
}

/**
 * ky as its README shows: one instance (prefix, bearer, timeout, POST retried), `json` in, `.json()` out;
 * `fetchImpl` replaces the global fetch (bench/figures/client-parts.ts calls it in process).
 */
export function viaKy(
  baseUrl: string,
  token: string,
  nextCart: () => AuthorizeRequest,
  fetchImpl?: typeof fetch,
): Call {
  const api = ky.create({
    prefixUrl: baseUrl,
    headers: { authorization: `Bearer ${token}` },
    timeout: TIMEOUT_MS,
    retry: { limit: MAX_RETRIES, methods: ['post'] },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return async () => {
    const answer = await api.post(PATH.slice(1), { json: nextCart(), headers: freshIds() }).json<Envelope>();
    authorized(answer, 'ky');
  };
}

/** openai-node's client with its generic `post`: bearer, retries and JSON body are its own. */
function viaOpenAi(baseUrl: string, token: string, nextCart: () => AuthorizeRequest): Call {
  const client = new OpenAI({
    apiKey: token,
    baseURL: baseUrl,
    timeout: TIMEOUT_MS,
    maxRetries: MAX_RETRIES,
  });
  return async () => {
    const answer = await client.post<Envelope>(PATH, { body: nextCart(), headers: freshIds() });
    authorized(answer, 'openai-node');
  };
}

/**
 * stripe-node (node:http underneath) pointed at the local server. Its v1 paths send forms, so the call is a
 * resource whose `requestDataProcessor` (stripe-node's hook for another body encoding) sends JSON.
 */
function viaStripe(baseUrl: string, token: string, nextCart: () => AuthorizeRequest): Call {
  const url = new URL(baseUrl);
  const stripe = new Stripe(token, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    timeout: TIMEOUT_MS,
    maxNetworkRetries: MAX_RETRIES,
  });
  class Sales extends Stripe.StripeResource {
    override requestDataProcessor = (
      _method: string,
      data: unknown,
      headers: Record<string, string>,
      callback: (error: Error | null, body: string) => void,
    ) => {
      headers['Content-Type'] = 'application/json';
      callback(null, JSON.stringify(data));
    };
    authorize(cart: AuthorizeRequest) {
      const { 'idempotency-key': idempotencyKey, ...headers } = freshIds();
      return this._makeRequest('POST', PATH, cart as never, { idempotencyKey, headers });
    }
  }
  const sales = new Sales(stripe);
  return async () => authorized((await sales.authorize(nextCart())) as Envelope, 'stripe-node');
}

/** Bare fetch: the bytes a careful hand-written integration sends (no timeout, as the figure always had). */
function viaFetch(baseUrl: string, token: string, nextCart: () => AuthorizeRequest): Call {
  const bearer = `Bearer ${token}`;
  return async () => {
    const response = await fetch(`${baseUrl}${PATH}`, {
      method: 'POST',
      headers: {
        authorization: bearer,
        'content-type': 'application/json',
        accept: 'application/json',
        ...freshIds(),
      },
      body: JSON.stringify(nextCart()),
    });
    authorized((await response.json()) as Envelope, 'fetch');
  };
}

export const PEERS = [
  { name: 'ky alone', make: viaKy },
  { name: 'openai-node', make: viaOpenAi },
  { name: 'stripe-node', make: viaStripe },
  { name: 'bare fetch', make: viaFetch },
] as const;

export type PeerName = (typeof PEERS)[number]['name'];

/** Each peer's call on `baseUrl`, each with its own stream of fresh carts (prefixes from `firstPrefix` on). */
export function peerCalls(baseUrl: string, token: string, firstPrefix: number): Map<PeerName, Call> {
  return new Map(
    PEERS.map(({ name, make }, i) => [name, make(baseUrl, token, cartStream(firstPrefix + i))] as const),
  );
}
