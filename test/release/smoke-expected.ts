// What the smoke calls of fixtures/checks.cjs answer on the installed packages, whatever loads them (Node, Jest, a bundle).

/** What the smoke calls in fixtures/checks.cjs answer when every package works as DESIGN.md says. */
export const expected = {
  core: { format: 'R$\u00a01.234,56', cpfValid: true, cpfInvalid: false, errorCode: 'total_mismatch' },
  authorizationClient: { grandTotal: 2 * 150050 + 19990, journey: 'function' },
  posClient: { storeScoped: 'function' },
  serverKit: {
    refused: { status: 401, error: 'invalid_client' },
    granted: { status: 200, tokenType: 'Bearer' },
    nodeHandler: 'function',
    memoryStore: 'object',
  },
  // Issue 16: @opentelemetry/api is an optional peer; without it a call goes through and nothing is traced.
  withoutOpenTelemetry: { installed: false, instrumented: false, authorized: true },
  serverKitPostgres: { postgresStore: 'function', migrate: 'function' },
  // Issue 28: @fin/server-kit/fastify and /express load with fastify (an optional peer) absent.
  serverKitAdapters: { fastifyInstalled: false, fastifyPlugin: 'function', expressRouter: 'function' },
};

/** What fixtures/journey-checks.cjs answers: one sale authorized (and replayed by its key), confirmed, cancelled. */
export const expectedJourney = {
  authorized: true,
  replayedSameAuthorization: true,
  confirmed: 'CONFIRMED',
  cancelVerification: 'PENDING',
  oneCorrelationId: 1,
};
