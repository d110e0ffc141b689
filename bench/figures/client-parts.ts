// Where the client's CPU per call goes beside ky alone: in process against a fetch that answers at once (CPU and heap allocated), then over loopback with the calling thread's own CPU, a variant at a time.
import { randomUUID } from 'node:crypto';
import { allocatedPerCall } from '../lib/allocated.js';
import { cartStream } from '../lib/cart.js';
import { commandOf, type Figure, type FigureOptions, fixed, type Row } from '../lib/figure.js';
import { type Call, viaClient, viaKy } from '../lib/peer-clients.js';
import { fetchToken } from '../lib/requests.js';
import { perCall } from '../lib/spent.js';
import { startTarget } from '../lib/target.js';
import { BENCH_CLIENT } from '../targets/bench-service.js';
import { plans } from './client.js';

/** The body a successful authorize answers (spec section 6.1 envelope), a new id and request id each time. */
function authorizedAnswer(requestId: string): string {
  return JSON.stringify({
    success: true,
    message: 'Venda autorizada',
    timestamp: new Date().toISOString(),
    data: {
      authorized: true,
      authorizationId: `auth_${randomUUID()}`,
      status: 'AUTHORIZED',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      message: 'Autorizada',
    },
    requestId,
  });
}

/** A fetch that answers at once, without a socket: what is left is the client's own JavaScript. */
const answeringFetch: typeof fetch = async (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  const headers = { 'content-type': 'application/json' };
  if (request.url.endsWith('/token')) {
    const token = { access_token: `tok_${randomUUID()}`, token_type: 'Bearer', expires_in: 3600 };
    return new Response(JSON.stringify({ ...token, scope: 'sales:authorize' }), { status: 200, headers });
  }
  await request.arrayBuffer();
  const requestId = request.headers.get('x-request-id') ?? randomUUID();
  return new Response(authorizedAnswer(requestId), {
    status: 200,
    headers: { ...headers, 'x-request-id': requestId },
  });
};

const OURS = 'AuthorizationClient';

async function run(options: FigureOptions): Promise<Row[]> {
  const plan = options.quick ? plans.quick : plans.full;
  const command = commandOf('client-parts', options);
  const row = (figure: string, measured: number, baseline: number, side: string): Row => ({
    figure,
    measured: `${fixed(measured * 1000, 0)} µs ${side}`,
    baseline: `${fixed(baseline * 1000, 0)} µs ky alone`,
    ratio: fixed(measured / baseline),
    command,
  });

  const local = 'http://bench.invalid';
  const ours = viaClient(local, 30, { fetch: answeringFetch });
  const kyAlone = viaKy(local, 'token', cartStream(31), answeringFetch);
  const inProcess = await perCall(
    new Map<string, Call>([
      [OURS, ours],
      ['ky alone', kyAlone],
    ]),
    plan,
  );
  // Allocation is deterministic where CPU time swings with where GC lands, so it judges a cut of a few µs.
  const [oursBytes, kyBytes] = [
    await allocatedPerCall(ours, plan.calls),
    await allocatedPerCall(kyAlone, plan.calls),
  ];
  const rows = [
    row(
      'authorize in process (a fetch that answers at once): CPU per call',
      inProcess.per(OURS).cpuMs,
      inProcess.per('ky alone').cpuMs,
      OURS,
    ),
    {
      figure: 'authorize in process (a fetch that answers at once): heap allocated per call',
      measured: `${fixed(oursBytes / 1024, 1)} KiB ${OURS}`,
      baseline: `${fixed(kyBytes / 1024, 1)} KiB ky alone`,
      ratio: fixed(oursBytes / kyBytes),
      command,
    },
  ];

  const target = await startTarget('memory');
  try {
    const token = await fetchToken(target.url, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
    const variants = [OURS, `${OURS}, maxRetries 0`] as const;
    const loopback = await perCall(
      new Map<string, Call>([
        [variants[0], viaClient(target.url, 32)],
        [variants[1], viaClient(target.url, 33, { maxRetries: 0 })],
        ['ky alone', viaKy(target.url, token, cartStream(34))],
      ]),
      plan,
    );
    const ky = loopback.per('ky alone');
    for (const side of variants) {
      const spent = loopback.per(side);
      rows.push(
        row('authorize over loopback: CPU of the calling process per call', spent.cpuMs, ky.cpuMs, side),
      );
      rows.push(
        row(
          'authorize over loopback: CPU of the calling thread alone per call',
          spent.threadMs,
          ky.threadMs,
          side,
        ),
      );
    }
    return rows;
  } finally {
    await target.close();
  }
}

export const clientParts: Figure = {
  name: 'client-parts',
  title:
    'Client parts: AuthorizationClient vs ky alone in process (a fetch that answers at once) and over loopback (process and calling-thread CPU, with and without retries)',
  run,
};
