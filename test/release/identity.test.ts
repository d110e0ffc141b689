// Release, issue 23 §1: one identity per concept whatever the entry point, in ESM, in CJS and both in one process, from the packed tarballs.
import { describe, expect, it } from 'vitest';
import { runSmoke, usePackedInstall } from './packed-install.js';

/**
 * What fixtures/identity-checks.cjs answers when the entry (or format) that catches an error recognises
 * the one another entry (or format) threw (decisions SH-1, SH-2).
 */
const recognised = {
  // @fin/core/transport's client raises it, @fin/core's classes recognise it.
  transportError: {
    code: 'connection_failed',
    finConnectionError: true,
    finError: true,
    isFinError: true,
    notFinApiError: true,
  },
  // @fin/server-kit/postgres's store throws it, @fin/server-kit's class recognises it.
  storeErrorClass: {
    name: 'StoreUnavailableError',
    instanceOf: true,
    isStoreUnavailable: true,
    notOtherErrors: true,
  },
  // ... so @fin/server-kit's service answers 503 with Retry-After, never 500.
  storeUnavailable: {
    status: 503,
    code: 'service_unavailable',
    retryAfter: true,
    finApiError: true,
    isFinApiError: true,
  },
};

const installed = usePackedInstall();

describe('issue 23: one class per concept across the entry points of the installed packages', () => {
  it('ESM: the postgres store refused by its database is a 503 of the root service; transport errors are @fin/core classes', async () => {
    const { results } = await runSmoke(installed(), 'identity.mjs');
    expect(results).toEqual({ esm: recognised });
  });

  it('CJS: the same through require()', async () => {
    const { results } = await runSmoke(installed(), 'identity.cjs');
    expect(results).toEqual({ cjs: recognised });
  });

  it('ESM and CJS in one process: two copies of each class, each recognising what the other throws (Symbol.for brands)', async () => {
    const { results } = await runSmoke(installed(), 'identity-mixed.mjs');
    expect(results).toEqual({ twoCopies: true, esmCatchesCjs: recognised, cjsCatchesEsm: recognised });
  });
});
