// Graceful shutdown end to end (issue 16 §2): SIGTERM to a loaded examples/financing-service process on PostgreSQL; every accepted request answered, nothing half-written; from the sources or the packed packages (issue 23).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PartnerPosServer } from '@fin/example-partner-pos';
import { cartFixture, deviceImei } from '@fin/server-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPostgres } from '../../../test/support/postgres.js';
import { POS_VENDOR, smallPartner, tokenRequest } from './support.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
/** Concurrent clients, each sending its next authorize as soon as the last is answered. */
const LANES = 12;
/** Answers before SIGTERM; with what is in flight, the total stays under the 120 writes a minute of spec 8. */
const ANSWERS_BEFORE_SIGTERM = 30;

interface Child {
  process: ChildProcess;
  url: Promise<string>;
  /** Every JSON line of its stdout (its log). */
  log: Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Where the service's `src/main.ts` runs: the workspace (sources) or a folder of installed packages. */
export interface ServiceBuild {
  /** For the test's name: `sources`, `packed packages`. */
  name: string;
  /** The folder `src/main.ts` sits in, relative to which `@fin/*` resolve; read when the test runs. */
  folder(): string;
}

export const sourcesBuild: ServiceBuild = {
  name: 'sources',
  folder: () => join(root, 'examples/financing-service'),
};

/**
 * Copies the example's `src/` into `installed` (where the packed tarballs are installed, msw beside them),
 * so its `@fin/*` imports resolve to the installed packages; returns the folder for `packedBuild`.
 */
export async function copyExampleInto(installed: string): Promise<string> {
  const folder = join(installed, 'financing-service');
  await cp(join(root, 'examples/financing-service/src'), join(folder, 'src'), { recursive: true });
  await writeFile(join(folder, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  return folder;
}

/** `pnpm --filter @fin/example-financing-service start` as a deployment runs it: its own process, env config. */
function startChild(databaseUrl: string, partner: PartnerPosServer, build: ServiceBuild): Child {
  const folder = build.folder();
  // Outside the workspace: no tsconfig `paths` (tsx reads the working folder's) and no workspace NODE_PATH.
  const { NODE_PATH: _workspaceModules, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', tsx, join(folder, 'src/main.ts')], {
    cwd: build === sourcesBuild ? root : folder,
    env: {
      ...(build === sourcesBuild ? process.env : inherited),
      PORT: '0',
      DATABASE_URL: databaseUrl,
      PARTNER_POS_URL: partner.url,
      PARTNER_CLIENT_ID: partner.sim.credentials.clientId,
      PARTNER_CLIENT_SECRET: partner.sim.credentials.clientSecret,
      FIN_CLIENT_ID: POS_VENDOR.clientId,
      FIN_CLIENT_SECRET: POS_VENDOR.clientSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: Record<string, unknown>[] = [];
  let stdout = '';
  let stderr = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const started = /Financing service at (http:\/\/\S+)/.exec(stdout);
      if (started) resolve(started[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const line of stdout.split('\n')) if (line.startsWith('{')) log.push(JSON.parse(line));
      resolve({ code, signal });
    }),
  );
  return { process: child, url, log, exited };
}

/** What an answer of the API carries that this test reads. */
interface AnswerBody {
  requestId?: string;
  data?: { authorized?: boolean; authorizationId?: string } | null;
  error?: { code?: string } | null;
}

type Outcome = { requestId: string; key: string } & (
  | { answered: true; status: number; connection?: string; body: AnswerBody }
  | { answered: false; error: string }
);

/** One authorize over a keep-alive connection, as a POS behind a load balancer sends it. */
function authorize(agent: Agent, url: string, token: string, storeId: string, n: number): Promise<Outcome> {
  const requestId = randomUUID();
  const key = randomUUID();
  const body = JSON.stringify(
    cartFixture({ imei: deviceImei(n), clientTaxId: '52998224725', storeId, price: 150_000 }),
  );
  return new Promise((resolve) => {
    const req = httpRequest(
      `${url}/v1/sales/authorize`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-request-id': requestId,
          'x-correlation-id': randomUUID(),
          'idempotency-key': key,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            requestId,
            key,
            answered: true,
            status: res.statusCode!,
            connection: res.headers.connection,
            body: JSON.parse(text),
          }),
        );
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({
            requestId,
            key,
            answered: false,
            error: `response ${error.code ?? error.message}`,
          }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ requestId, key, answered: false, error: error.code ?? error.message }),
    );
    req.end(body);
  });
}

/** Registers the SIGTERM test of the example service run from `build`, on `postgres`. */
export function describeSigtermDrain(build: ServiceBuild, postgres: TestPostgres): void {
  let partner: PartnerPosServer;
  beforeAll(async () => {
    partner = await smallPartner();
  });
  afterAll(() => partner.close());

  describe(`examples/financing-service from the ${build.name}: SIGTERM under load`, () => {
    it('every request the server accepted gets its complete answer, the process exits 0, and the database holds no half-written sale', async () => {
      await drainUnderLoad(await postgres.createDatabase(), partner, build);
    }, 90_000);
  });
}

async function drainUnderLoad(databaseUrl: string, partner: PartnerPosServer, build: ServiceBuild) {
  {
    const child = startChild(databaseUrl, partner, build);
    const url = await child.url;
    const token = (await (await tokenRequest(url)).json()).access_token as string;
    const storeId = partner.sim.data.stores[0]!.storeId;

    const agent = new Agent({ keepAlive: true, maxSockets: LANES });
    const outcomes: Outcome[] = [];
    let next = 0;
    let sigtermAfter: number | undefined;
    const lane = async () => {
      for (;;) {
        const outcome = await authorize(agent, url, token, storeId, ++next);
        outcomes.push(outcome);
        if (sigtermAfter === undefined && outcomes.length >= ANSWERS_BEFORE_SIGTERM) {
          sigtermAfter = outcomes.length;
          child.process.kill('SIGTERM');
        }
        // A lane ends at its first refusal (a 503 of the shutdown) or refused connection.
        if (!outcome.answered || outcome.status !== 200) return;
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    agent.destroy();
    const exit = await child.exited;
    expect(exit).toEqual({ code: 0, signal: null });

    // The proof that accepted requests were answered: every request id the service logged (it logs each
    // request it handled, the shutdown's 503s included) came back to its client as a complete answer.
    const handled = child.log.filter((entry) => entry.event === 'http.request' && entry.route !== 'token');
    const answered = new Map(outcomes.filter((o) => o.answered).map((o) => [o.requestId, o] as const));
    expect(handled.length).toBeGreaterThan(ANSWERS_BEFORE_SIGTERM);
    for (const entry of handled) {
      const outcome = answered.get(entry.requestId as string);
      expect(outcome, `request ${String(entry.requestId)} handled but not answered`).toBeDefined();
      expect(outcome).toMatchObject({ status: entry.status, body: { requestId: entry.requestId } });
    }
    // The shutdown began with requests in flight, and they finished before the process exited.
    const closing = child.log.find((entry) => entry.event === 'service.closing');
    expect(closing).toBeDefined();
    expect(child.log.find((entry) => entry.event === 'service.closed')).toMatchObject({ drained: true });
    // What did not get an answer never reached the service (refused or reset before it was read).
    for (const outcome of outcomes.filter((o) => !o.answered)) {
      expect(handled.some((entry) => entry.requestId === outcome.requestId)).toBe(false);
    }
    // Refusals during the shutdown say when to come back, and end their connection.
    for (const outcome of answered.values()) {
      if (outcome.answered && outcome.status === 503) {
        expect(outcome.body.error?.code).toBe('service_unavailable');
        expect(outcome.connection).toBe('close');
      } else {
        expect(outcome).toMatchObject({ status: 200, body: { data: { authorized: true } } });
      }
    }

    // Nothing half-written: rows == 2xx answers, each with its idempotent answer, and the reverse.
    const authorizedIds = [...answered.values()]
      .flatMap((o) => (o.answered && o.status === 200 ? [o.body.data?.authorizationId] : []))
      .sort();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const rows = await db.query<{ authorization_id: string; answer: string | null }>(
        `SELECT a.authorization_id, k.response->'body'->'data'->>'authorizationId' AS answer
           FROM fin_authorizations a
           LEFT JOIN fin_idempotency_keys k
             ON k.client_id = a.client_id AND k.response->'body'->'data'->>'authorizationId' = a.authorization_id`,
      );
      expect(rows.rows.map((row) => row.authorization_id).sort()).toEqual(authorizedIds);
      expect(rows.rows.every((row) => row.answer === row.authorization_id)).toBe(true);
      const keys = await db.query<{ idem_key: string; status: number | null; completed: boolean }>(
        `SELECT idem_key, (response->>'status')::int AS status, completed_at IS NOT NULL AS completed
           FROM fin_idempotency_keys`,
      );
      // No claim left running, and a stored answer exactly for each key whose client got a 200.
      expect(keys.rows.every((row) => row.completed)).toBe(true);
      const okKeys = [...answered.values()].filter((o) => o.answered && o.status === 200).map((o) => o.key);
      expect(keys.rows.map((row) => row.idem_key).sort()).toEqual(okKeys.sort());
      const proposals = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM fin_proposals');
      expect(proposals.rows[0]!.n).toBe(authorizedIds.length);
    } finally {
      await db.end();
    }
    // Reported for the reader of the test log: how the load ended.
    const summary = {
      sigtermAfter,
      inFlightAtSigterm: closing?.inFlight,
      ok: authorizedIds.length,
      refused503: [...answered.values()].filter((o) => o.answered && o.status === 503).length,
      notAccepted: outcomes.flatMap((o) => (o.answered ? [] : [o.error])),
    };
    console.info(`SIGTERM under load (${build.name}):`, JSON.stringify(summary));
  }
}
