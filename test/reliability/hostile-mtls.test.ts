// Issue 29 §1: the hostile-peer suites rerun over mutual TLS, every case unchanged (no redirect, bounded time and bytes).
// The suites' transport is chosen once (support/hostile-peer.ts suiteTransport); this file selects mutual TLS
// before loading them, so each of their cases runs again with a client certificate on both clients.
process.env.FIN_SUITE_TRANSPORT = 'mtls';
await import('./hostile-partner.test.js');
await import('./hostile-catalog-sync.test.js');
await import('./hostile-token-flood.test.js');

export {};
