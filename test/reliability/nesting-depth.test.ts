// SF-2 (issue 23): a JSON body nested deeper than MAX_JSON_DEPTH is refused 400 naming the limit, on every JSON route of both servers, before anything recurses.
import { endpoints } from '@fin/core';
import { MAX_JSON_DEPTH } from '@fin/core/errors';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { memoryStore } from '@fin/server-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonWriteHeaders } from '../support/write-headers.js';
import { answered, assertEnvelope } from './support/envelope-check.js';
import { PARTNER_A, reliabilityService } from './support/financing.js';

/** `[[...[]...]]`, `depth` arrays deep: the most nesting per byte (30,000 levels are 60 KB, under the body limit). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** An endpoint's first documented body example, with one unknown field nested `depth` levels (the field itself adds one). */
function deepBody(endpoint: endpoints.EndpointDefinition, depth: number): string {
  const example = Object.values(endpoint.body?.examples ?? {})[0]?.value ?? {};
  const text = JSON.stringify(example);
  return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"extension":${nested(depth - 1)}}`;
}

const jsonRoutes = (table: Record<string, endpoints.EndpointDefinition>) =>
  Object.values(table)
    .filter((endpoint) => endpoint.body?.mediaType === 'application/json')
    .map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const);

const DEPTHS = [MAX_JSON_DEPTH + 1, 5_000, 30_000];

async function expectRefused(response: Response) {
  const answer = await answered(response);
  assertEnvelope(answer);
  expect(answer.status).toBe(400);
  const body = JSON.parse(answer.text);
  expect(body.error.code).toBe('bad_request');
  expect(JSON.stringify(body.error)).toContain(String(MAX_JSON_DEPTH));
}

async function expectNotRefusedForDepth(response: Response) {
  const answer = await answered(response);
  assertEnvelope(answer);
  expect(answer.text).not.toContain(`deeper than ${MAX_JSON_DEPTH}`);
}

type Fetch = (request: Request) => Promise<Response>;

/** A system token from `origin`'s token endpoint, through `fetch`. */
async function tokenFrom(fetch: Fetch, origin: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(
    new Request(`${origin}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...form }),
    }),
  );
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A JSON write to `url` with the token and fresh request ids: only the body can be at fault. */
const jsonWrite = (url: string, method: string, token: string, body: string) =>
  new Request(url, {
    method,
    headers: jsonWriteHeaders(token),
    body,
  });

describe('SF-2: the financing service (server-kit) refuses bodies nested past the limit', () => {
  const service = reliabilityService({ store: memoryStore() });
  let token = '';
  beforeAll(async () => {
    token = await tokenFrom(service.fetch, 'http://financing.test', {
      client_id: PARTNER_A.clientId,
      client_secret: PARTNER_A.clientSecret,
      scope: 'sales:authorize',
    });
  });
  const send = (endpoint: endpoints.EndpointDefinition, body: string) =>
    service.fetch(
      jsonWrite(
        `http://financing.test${endpoint.path.replace('{id}', crypto.randomUUID())}`,
        endpoint.method,
        token,
        body,
      ),
    );

  const routes = jsonRoutes(endpoints.salesAuthorization);
  it('covers every JSON route of the Sales Authorization API', () => {
    expect(routes.length).toBeGreaterThanOrEqual(3);
  });
  it.each(routes)(
    '%s: 65, 5,000 and 30,000 levels answer 400 naming the limit (5,000+ answered 500 before)',
    async (_name, endpoint) => {
      for (const depth of DEPTHS) await expectRefused(await send(endpoint, deepBody(endpoint, depth)));
    },
  );
  it.each(routes)('%s: exactly the limit is not refused for its depth', async (_name, endpoint) => {
    await expectNotRefusedForDepth(await send(endpoint, deepBody(endpoint, MAX_JSON_DEPTH)));
  });
});

describe('SF-2: the simulated partner POS (pos-client/testing, examples/partner-pos) refuses bodies nested past the limit', () => {
  const sim = createSimulatedPos({ rateLimit: false });
  let token = '';
  beforeAll(async () => {
    token = await tokenFrom(sim.fetch, 'http://partner-pos.test', {
      client_id: sim.credentials.clientId,
      client_secret: sim.credentials.clientSecret,
    });
  });
  // A store of the simulation and a reservation id for the paths that need them: only the body is at fault.
  const storeId = sim.data.stores[0]!.storeId;
  const send = (endpoint: endpoints.EndpointDefinition, body: string) =>
    sim.fetch(
      jsonWrite(
        `http://partner-pos.test${endpoint.path.replace('{reservationId}', crypto.randomUUID())}?storeId=${storeId}`,
        endpoint.method,
        token,
        body,
      ),
    );

  const routes = jsonRoutes(endpoints.partnerPos);
  it('covers every JSON route of the Partner POS API', () => {
    expect(routes.length).toBeGreaterThanOrEqual(2);
  });
  it.each(routes)('%s: 65, 5,000 and 30,000 levels answer 400 naming the limit', async (_name, endpoint) => {
    for (const depth of DEPTHS) await expectRefused(await send(endpoint, deepBody(endpoint, depth)));
  });
  it.each(routes)('%s: exactly the limit is not refused for its depth', async (_name, endpoint) => {
    await expectNotRefusedForDepth(await send(endpoint, deepBody(endpoint, MAX_JSON_DEPTH)));
  });
});
