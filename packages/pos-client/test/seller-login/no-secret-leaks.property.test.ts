// Issue 35 acceptance: no password, CPF, code, PKCE verifier or token of a seller login in any log line, hook event or thrown error (message, properties, cause chain, JSON.stringify, util.inspect).
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PosClient, type SellerLoginTransaction } from '../../src/index.js';
import {
  createSimulatedPos,
  createSimulatedSellerLogin,
  type IdTokenTweak,
} from '../../src/testing/index.js';

const REDIRECT_URI = 'https://financing.test/callback';

/** The ways a login ends: approved, or refused at each step. */
const endings = fc.constantFrom<
  { kind: 'ok' } | { kind: 'tweak'; tweak: IdTokenTweak } | { kind: 'replay' | 'state' | 'verifier' | 'deny' }
>(
  { kind: 'ok' },
  { kind: 'tweak', tweak: { nonce: 'other' } },
  { kind: 'tweak', tweak: { foreignKey: true } },
  { kind: 'tweak', tweak: { alg: 'none' } },
  { kind: 'tweak', tweak: { expired: true } },
  { kind: 'replay' },
  { kind: 'state' },
  { kind: 'verifier' },
  { kind: 'deny' },
);

/** Everything a thrown value shows: message, own properties, JSON, util.inspect, and the same down its `cause` chain. */
function renderings(error: unknown): string[] {
  const out: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth += 1) {
    out.push(String(current), JSON.stringify(current), inspect(current, { depth: 10, showHidden: true }));
    if (current instanceof Error)
      out.push(current.message, current.stack ?? '', JSON.stringify({ ...current }));
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}

async function run(seed: number, ending: { kind: string; tweak?: IdTokenTweak }) {
  const sim = createSimulatedPos({ seed, size: { stores: 1, employees: 2 } });
  const kit = await createSimulatedSellerLogin({ sim });
  const seen: string[] = [];
  const keep = (value: unknown) => void seen.push(JSON.stringify(value), inspect(value, { depth: 10 }));
  const client = () =>
    new PosClient({
      baseUrl: 'https://pos.test',
      clientId: kit.clientId,
      clientSecret: 'unused',
      fetch: (input, init) => kit.fetch(new Request(input, init)),
      logger: { debug: keep, info: keep, warn: keep, error: keep },
      oidc: { issuer: kit.issuer, redirectUri: REDIRECT_URI, clientAuth: kit.clientAuth, dpop: kit.dpop },
    })
      .on('request', keep)
      .on('response', keep);
  const seller = sim.data.sellers[0]!;
  const { url, transaction } = await client().sellers.beginLogin({ storeId: seller.storeId });
  let callbackUrl = ending.kind === 'deny' ? kit.deny(url) : kit.approve(url, seller.sellerId);
  let tx: SellerLoginTransaction = transaction;
  if (ending.tweak) kit.tweakNextIdToken(ending.tweak);
  if (ending.kind === 'state') callbackUrl = callbackUrl.replace(/state=[^&]+/, 'state=forged');
  if (ending.kind === 'verifier') tx = { ...transaction, codeVerifier: 'v'.repeat(50) };
  const secrets = [
    seller.cpf,
    seller.password,
    transaction.codeVerifier,
    new URL(callbackUrl).searchParams.get('code'),
  ];
  if (ending.kind === 'replay') {
    const session = await client().sellers.completeLogin(callbackUrl, tx);
    secrets.push(session.accessToken);
  }
  try {
    const session = await client().sellers.completeLogin(callbackUrl, tx);
    secrets.push(session.accessToken);
  } catch (error) {
    seen.push(...renderings(error));
  }
  return { seen, secrets: secrets.filter((secret): secret is string => Boolean(secret)) };
}

describe('issue 35: a seller login leaks no secret', () => {
  test('over generated sellers and every ending, no log line, hook event or error holds a password, CPF, code, verifier or token', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), endings, async (seed, ending) => {
        const { seen, secrets } = await run(seed, ending);
        expect(seen.length).toBeGreaterThan(0);
        for (const secret of secrets) {
          for (const text of seen) expect(text).not.toContain(secret);
        }
      }),
      { numRuns: 30 },
    );
  });
});
