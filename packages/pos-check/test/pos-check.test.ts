// fin-pos-check (issue 13 point 3, issue 18 point 5): the simulated partner passes; each deliberate break fails exactly its check, with the fix.

import { allChecks, type CheckReport, junitReport, runPosCheck, terminalReport } from '@fin/pos-check';
import { type ContractBreak, contractBreaks } from '@fin/pos-client/testing';
import { describe, expect, test } from 'vitest';
import { simulatedPartner } from './pos-check.fixtures.js';

const failing = (report: CheckReport) => report.results.filter((r) => r.status === 'fail').map((r) => r.id);
const warning = (report: CheckReport) => report.results.filter((r) => r.status === 'warn').map((r) => r.id);
const problemsOf = (report: CheckReport, id: string) => report.results.find((r) => r.id === id)!.problems;

describe('fin-pos-check against the simulated partner', () => {
  test('the simulated POS passes every check: exit code 0, no violation, no finding, nothing skipped', async () => {
    const { options } = simulatedPartner();
    const report = await runPosCheck({ ...options, limits: { readsPerMinute: 600 } });
    expect(report.results.map((r) => [r.id, r.status, r.problems, r.skipped])).toEqual(
      allChecks.map((check) => [check.id, 'pass', [], undefined]),
    );
    expect(report.exitCode).toBe(0);
  });

  test('versioning (spec section 9): unknown fields in every answer are tolerated, not reported', async () => {
    const { sim, options } = simulatedPartner();
    const withExtras: typeof sim.fetch = async (input, init) => {
      const response = await sim.fetch(input, init);
      const body = await response.json();
      const add = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(add)
          : typeof value === 'object' && value !== null
            ? { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, add(v)])), v11Field: 'new' }
            : value;
      return new Response(JSON.stringify(add(body)), { status: response.status, headers: response.headers });
    };
    const report = await runPosCheck({ ...options, fetch: withExtras });
    expect(failing(report)).toEqual([]);
    expect(warning(report)).toEqual([]);
  });

  test.each(['not-found', 'not-implemented'] as const)(
    'a partner without stock reservation (%s, v1.1 optional): the reservation checks are skipped, nothing fails',
    async (reservations) => {
      const { options } = simulatedPartner({ partner: { reservations } });
      const report = await runPosCheck({ ...options, limits: { readsPerMinute: 600 } });
      const skipped = report.results.filter((r) => r.status === 'skip').map((r) => r.id);
      expect(skipped).toEqual([
        'reservation.idempotent-create',
        'reservation.one-per-imei',
        'reservation.expiry',
        'reservation.release-twice',
      ]);
      expect(failing(report)).toEqual([]);
      expect(warning(report)).toEqual([]);
      expect(report.exitCode).toBe(0);
    },
  );
});

/** Each break of the simulated partner, the one check it must fail, and words its message must carry. */
const breaks: [ContractBreak, string, RegExp][] = [
  ['token-type-mac', 'oauth.token-response', /token_type/],
  ['token-cacheable', 'oauth.no-store', /Cache-Control: no-store/],
  [
    'basic-auth-refused',
    'oauth.client-auth',
    /client_secret_basic: the `Authorization` header, scheme `Basic`/,
  ],
  ['invalid-client-400', 'oauth.invalid-client', /HTTP 401.*invalid_client/],
  ['failed-login-401', 'seller-session', /HTTP 200 and the result in `data.status`/],
  ['store-context-422', 'r01.store-context', /HTTP 400 with error code `store_context_required`/],
  ['page-size-default-20', 'pagination', /pageSize to 50/],
  ['page-bounds-crash', 'pagination', /refuse page < 1 and pageSize outside 1\.\.200/],
  ['total-pages-off-by-one', 'pagination', /totalPages = ceil\(totalItems \/ pageSize\)/],
  ['page-after-last-404', 'pagination', /page past the end with HTTP 200, an empty list/],
  ['money-as-decimal-text', 'money', /integer cents/],
  ['color-attribute', 'r03.no-color', /remove color/],
  ['barcode-smartphones-only', 'r04.barcode', /every accessory/],
  ['services-with-barcode', 'r04.barcode', /services .* have no barcode/],
  ['stock-of-another-store', 'stock', /sku and storeId of the query/],
  ['imei-check-digit-ignored', 'r05.imei', /check digit/],
  ['sale-search-query-only', 'sale-search', /JSON body of POST \/v1\/sales\/search/],
  ['auth-errors-403', 'errors', /HTTP 401 `missing_token`/],
  ['timestamp-without-millis', 'envelope', /milliseconds/],
  ['request-id-missing', 'request-id', /X-Request-Id header .* requestId/],
  ['processing-time-missing', 'processing-time', /X-Processing-Time-Ms: <milliseconds>/],
  ['store-cnpj-masked', 'payload', /14-digit CNPJ without mask/],
  ['reservation-replay-new-hold', 'reservation.idempotent-create', /first answer of each Idempotency-Key/],
  ['imei-double-hold', 'reservation.one-per-imei', /HTTP 409 `imei_already_reserved`/],
  ['reservation-ttl-ignored', 'reservation.expiry', /expiresAt = createdAt \+ ttlSeconds/],
  ['release-twice-conflict', 'reservation.release-twice', /release idempotently/],
];

describe('each deliberately broken partner fails exactly the check of the rule it breaks, saying what to fix', () => {
  test('every contract break of the simulated POS is exercised here, and every check has a break (limits below)', () => {
    expect(new Set([...breaks.map(([name]) => name), 'retry-after-missing'])).toEqual(
      new Set(contractBreaks),
    );
    // transport-security reads sockets msw has none of: proven over loopback in examples/partner-pos/test/partner-pos-mtls.test.ts.
    expect(new Set([...breaks.map(([, check]) => check), 'limits', 'transport-security'])).toEqual(
      new Set(allChecks.map((check) => check.id)),
    );
  });

  test.each(breaks)('%s: only %s fails', async (name, check, fix) => {
    const { sim, options } = simulatedPartner();
    sim.faults.breakContract(name);
    const report = await runPosCheck(options);
    expect(failing(report)).toEqual([check]);
    expect(report.exitCode).toBe(1);
    const violations = problemsOf(report, check).filter((p) => p.severity === 'violation');
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.map((p) => p.fix).join('\n')).toMatch(fix);
  });
});

/** The reads the simulated partner counted against the client's budget (its tokens, not the token endpoint). */
const clientReads = (sim: ReturnType<typeof simulatedPartner>['sim']) =>
  sim.requests
    .all()
    .filter((r) => r.endpoint !== 'POST /v1/oauth/token' && r.clientId === sim.credentials.clientId);

describe('opt-in --limits: 429 with Retry-After, never more than one request over the budget', () => {
  test('a partner limiting reads answers 429 with Retry-After: pass, and the run stays within budget + 1', async () => {
    const { sim, options } = simulatedPartner({ rateLimit: { reads: 150 } });
    const report = await runPosCheck({ ...options, limits: { readsPerMinute: 150 } });
    expect(problemsOf(report, 'limits')).toEqual([]);
    expect(failing(report)).toEqual([]);
    const reads = clientReads(sim);
    expect(reads.filter((r) => r.status !== 429)).toHaveLength(150);
    expect(reads).toHaveLength(151);
  });

  test('a partner without a limit: limits fails after budget + 1 reads, naming the limit to set', async () => {
    const { sim, options } = simulatedPartner({ rateLimit: false });
    const report = await runPosCheck({ ...options, limits: { readsPerMinute: 150 } });
    expect(failing(report)).toEqual(['limits']);
    expect(problemsOf(report, 'limits')[0]!.fix).toMatch(/limit reads to 150 a minute/);
    expect(clientReads(sim).length).toBeLessThanOrEqual(152); // budget + 1, + 1 narrow-scope call of the errors check
  });

  test('retry-after-missing: a 429 without Retry-After fails only limits', async () => {
    const { sim, options } = simulatedPartner({ rateLimit: { reads: 150 } });
    sim.faults.breakContract('retry-after-missing');
    const report = await runPosCheck({ ...options, limits: { readsPerMinute: 150 } });
    expect(failing(report)).toEqual(['limits']);
    expect(problemsOf(report, 'limits')[0]!.fix).toMatch(/Retry-After: <seconds>/);
  });
});

describe('no secret or personal data in a report', () => {
  test('with every rule broken at once, the JSON and JUnit reports hold no secret, password, token, CPF or IMEI', async () => {
    const { sim, options, seller } = simulatedPartner({ rateLimit: { reads: 150 } });
    sim.faults.breakContract(...contractBreaks);
    sim.partner.set({ stockField: 'quantity', echoRequestId: false, imeiRefusalMessage: 'missing' });
    const report = await runPosCheck({
      ...options,
      seller: { cpf: seller.cpf, password: seller.password },
      limits: { readsPerMinute: 150 },
    });
    expect(failing(report).length).toBeGreaterThan(10);
    const text = JSON.stringify(report) + junitReport(report) + terminalReport(report);
    for (const secret of [
      options.clientSecret,
      seller.password,
      seller.cpf,
      options.saleTaxId,
      options.imei,
      'simpos_',
    ])
      expect(text).not.toContain(secret);
  });
});

describe('issue 24 §8: a secret is masked as a whole token, never inside an ordinary word', () => {
  test('a one-letter client secret ("a") leaves the fixes readable: no "[REDACTED]" inside a word', async () => {
    const { sim, options } = simulatedPartner({
      clients: [{ clientId: 'financing-service', clientSecret: 'a' }],
    });
    sim.faults.breakContract('page-size-default-20', 'money-as-decimal-text');
    const report = await runPosCheck({ ...options, clientSecret: 'a' });
    expect(failing(report)).toEqual(['pagination', 'money']);
    const text = JSON.stringify(report) + junitReport(report) + terminalReport(report);
    expect(text).not.toMatch(/\[REDACTED\][\p{L}\p{N}]|[\p{L}\p{N}]\[REDACTED\]/u);
    expect(problemsOf(report, 'money')[0]!.fix).toMatch(/integer cents/);
  });
});

describe('issue 18 point 5: partner readings our client tolerates are findings with the fix, exit code 0', () => {
  test.each([
    [{ stockField: 'quantity' as const }, 'stock', /name the count `stock`/],
    [{ saleNotFoundCode: 'sale_not_found' }, 'sale-search', /404 `resource_not_found`/],
    [{ echoRequestId: false }, 'request-id', /echo the X-Request-Id header/],
    [{ imeiRefusalMessage: 'missing' as const }, 'r05.imei', /reason of every refusal in `message`/],
    [{ imeiRefusalMessage: 'empty' as const }, 'r05.imei', /reason of every refusal in `message`/],
  ])('%o: a finding of %s, no violation', async (variant, check, fix) => {
    const { sim, options } = simulatedPartner();
    sim.partner.set(variant);
    const report = await runPosCheck(options);
    expect(failing(report)).toEqual([]);
    expect(warning(report)).toEqual([check]);
    expect(report.exitCode).toBe(0);
    const [problem] = problemsOf(report, check);
    expect(problem).toMatchObject({ severity: 'finding', fix: expect.stringMatching(fix) });
  });
});
