// Issue 36 §1, decision C-22: redaction knows an identifier; no id any package issues is altered by redact or redactText, CPFs beside them still masked.

import { AuthorizationClient } from '@fin/authorization-client';
import { signWebhook } from '@fin/authorization-client/testing';
import { cpf as cpfId, redact, redactText } from '@fin/core';
import { newIdempotencyKey } from '@fin/core/transport';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import vectors from '../../packages/core/test/vectors/identifiers.json' with { type: 'json' };

// Every generator draws its randomness from node:crypto's randomUUID, uuid's v4 or WebCrypto's randomUUID:
// each is fed the UUID fast-check chose, so the property runs the real generators on adversarial UUIDs.
const feed = vi.hoisted(() => ({ uuid: '00000000-0000-4000-8000-000000000000' }));
vi.mock('node:crypto', async (original) => ({
  ...(await original<typeof import('node:crypto')>()),
  randomUUID: () => feed.uuid,
}));
// uuid as @fin/core resolves it (the root has no uuid of its own).
vi.mock('../../packages/core/node_modules/uuid', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  v4: () => feed.uuid,
}));
beforeAll(() => {
  vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(
    () => feed.uuid as ReturnType<typeof crypto.randomUUID>,
  );
});
afterAll(() => vi.restoreAllMocks());

declare global {
  /** Vite's `import.meta.glob` (vitest runs on Vite; the root has no `vite/client` types). */
  interface ImportMeta {
    glob<T>(pattern: string, options: { eager: true }): Record<string, T>;
  }
}

interface ServerIds {
  newAuthorizationId(): string;
  newContractId(): string;
  newProposalId(): string;
  newId(prefix: string): string;
}
/** The server kit's id makers (not public): found wherever `ids.ts` sits (issue 37 moves it under ports/). */
const [serverIds] = Object.values(
  import.meta.glob<ServerIds>('../../packages/server-kit/src/*/ids.ts', { eager: true }),
);
if (!serverIds) throw new Error('packages/server-kit/src/*/ids.ts not found');
const { newAuthorizationId, newContractId, newId, newProposalId } = serverIds;

/** A client whose calls are answered here: its `X-Request-Id` and `X-Correlation-Id` are the transport's own. */
const sent: Request[] = [];
const client = new AuthorizationClient({
  baseUrl: 'https://api.test',
  clientId: 'pos-1',
  clientSecret: 's',
  maxRetries: 0,
  rateLimit: false,
  fetch: async (input, init) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/oauth/token')) {
      return Response.json({
        access_token: 't',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'sales:authorize',
      });
    }
    sent.push(request);
    return Response.json({ error: { code: 'authorization_not_found', message: 'x' } }, { status: 404 });
  },
});
const transportIds = async () => {
  await client.retrieve('auth_1').catch(() => undefined);
  const { headers } = sent.at(-1) ?? new Request('https://api.test');
  return `${headers.get('x-request-id')} ${headers.get('x-correlation-id')}`;
};

const secret = `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`;

/** Every id an @fin package issues, by what it names. */
const generators: Record<string, () => string | Promise<string>> = {
  'authorization id (server-kit, auth_<uuid>)': newAuthorizationId,
  'contract id (server-kit, ctr_<uuid>)': newContractId,
  'proposal id (server-kit, prop_<uuid>)': newProposalId,
  // event-drafts.ts and idempotency.ts make these with the same newId
  'webhook event id (server-kit, evt_<uuid>)': () => newId('evt_'),
  'idempotency claim owner (server-kit, claim_<uuid>)': () => newId('claim_'),
  'idempotency key (core, uuid v4)': newIdempotencyKey,
  'request and correlation ids (core transport, uuid v4)': transportIds,
  'webhook message id (authorization-client/testing, msg_<32 hex>)': async () =>
    (await signWebhook({ secret, event: '{}' })).headers['webhook-id'] ?? '',
};

/** UUIDs v4 whose hex digits are mostly decimal: about half hold a run of 11 digits or more (1 in 230 at random). */
const nibble = fc.oneof(
  { weight: 14, arbitrary: fc.constantFrom(...'0123456789') },
  { weight: 1, arbitrary: fc.constantFrom(...'abcdef') },
);
const hex = (length: number) => fc.string({ unit: nibble, minLength: length, maxLength: length });
const adversarialUuid = fc
  .tuple(hex(8), hex(4), hex(3), fc.constantFrom('8', '9', 'a', 'b'), hex(3), hex(12))
  .map(([a, b, c, variant, d, e]) => `${a}-${b}-4${c}-${variant}${d}-${e}`);
const anyUuid = fc.oneof(adversarialUuid, fc.uuid({ version: 4 }));

const elevenDigits = /(?<!\d)\d{11,}/;
const [cpf = ''] = vectors.cpf.valid;

describe('issue 36 §1: no id of ours or UUID is altered by redaction, a CPF beside it still is', () => {
  it.each(Object.entries(generators))('%s survives redact and redactText', async (_name, generate) => {
    let withDigitRun = 0;
    await fc.assert(
      fc.asyncProperty(anyUuid, async (uuid) => {
        feed.uuid = uuid;
        const id = await generate();
        expect(id.replaceAll('-', '')).toContain(uuid.replaceAll('-', ''));
        if (elevenDigits.test(id)) withDigitRun++;
        expect(redactText(id)).toBe(id);
        const line = `contract ${id} for ${cpf} at https://api.test/v1/sales/${id}?x=1`;
        const masked = redactText(line);
        expect(masked).toBe(line.replace(cpf, cpfId.mask(cpf)));
        expect(redact({ id, message: line, ids: [id] })).toEqual({ id, message: masked, ids: [id] });
      }),
      { numRuns: 200 },
    );
    // The property has teeth: many runs put 11 digits or more inside the id, the shape the issue saw masked.
    expect(withDigitRun).toBeGreaterThan(20); // about 50 expected of 200 runs
  });

  it("the issue's own contract id is logged as it is", () => {
    const id = 'ctr_a7d6a52d-0463-48ed-9615-12304420456f';
    expect(redactText(`confirmed ${id}`)).toBe(`confirmed ${id}`);
    expect(redact({ contractId: id })).toEqual({ contractId: id });
  });
});
