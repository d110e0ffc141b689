import { runLoad } from './lib/load.js';
import { authorizeRequests, fetchToken } from './lib/requests.js';
import { BENCH_CLIENT } from './targets/bench-service.js';

const url = 'http://127.0.0.1:45123';
const token = await fetchToken(url, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
const r = await runLoad({
  url,
  path: '/v1/sales/authorize',
  connections: 10,
  durationSeconds: Number(process.argv[2] ?? 8),
  makeRequest: authorizeRequests(token, 40),
});
console.log(r);
